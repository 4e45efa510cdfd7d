// Compile-time guard, never bundled: a key missing from either language file fails `tsc`.
import en from './en.json';
import zh from './zh.json';

export const zhHasEveryEnKey: Record<keyof typeof en, string> = zh;
export const enHasEveryZhKey: Record<keyof typeof zh, string> = en;
