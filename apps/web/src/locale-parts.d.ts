// The language files' parts (vite-locale-parts.ts): flat keys to texts.
declare module '*.json?part=account' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?part=console' {
  const messages: Record<string, string>;
  export default messages;
}
