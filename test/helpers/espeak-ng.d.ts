// The espeak-ng package (WebAssembly build, GPL, test-only) ships no types.
declare module 'espeak-ng' {
  interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array };
  }
  export default function ESpeakNg(options: { arguments: string[] }): Promise<ESpeakNgModule>;
}
