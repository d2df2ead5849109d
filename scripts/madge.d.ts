/** The part of madge's API (its README, "API") that scripts/import-loops.ts uses; madge ships no types. */
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
  }
  interface MadgeResult {
    /** Each loop as the modules it runs through, relative to `baseDir`, the first not repeated at the end. */
    circular(): string[][];
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
