// An esbuild plugin for the analyzer's bundles (the server's and `hooklens check`'s): zod's
// translated error messages stay out. zod reaches its 64 locale modules (~300 KB of the server's
// bundle) only through `export * as locales`, and esbuild keeps all of them because the code uses
// `z` as a namespace. Nothing in the server or the CLI calls `z.locales.*`; English, zod's default,
// is imported on its own and stays. Every start without a code cache then compiles ~4 % less.
export function zodLocalesOut() {
  return {
    name: "zod-locales-out",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
        /[\\/]node_modules[\\/]zod[\\/]v4[\\/](?:classic|core)[\\/]/.test(importer) ? { path: "zod-locales", namespace: "zod-locales-out" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "zod-locales-out" }, () => ({ contents: "export {};", loader: "js" }));
    },
  };
}
