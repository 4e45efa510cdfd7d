// The language files' parts (vite-locale-parts.ts): flat keys to texts.
declare module '*.json?part=account' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?part=shell' {
  const messages: Record<string, string>;
  export default messages;
}
// For each language, each part but the first load's by name (`shell` or a prefix), as its import.
declare module 'virtual:iotc-locale-parts' {
  const parts: Record<string, Record<string, () => Promise<{ default: Record<string, string> }>>>;
  export default parts;
}
