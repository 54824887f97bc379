import type { Plugin } from 'vite';

/**
 * Puts the entry's style sheet into index.html as a `<style>` element. The page draws nothing
 * before its script runs, but a linked sheet is one more request the first paint waits for; a
 * few kilobytes inside the page cost less. The Content-Security-Policy allows inline styles
 * (plugins/console/headers.ts says why); scripts stay in files. Only a sheet without `url()` is
 * inlined: a relative URL would resolve against the page's address instead of the sheet's.
 */
export function inlineEntryCssPlugin(): Plugin {
  return {
    name: 'runtime-console-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"(?: crossorigin)? href="[^"]*\/(assets\/[^"/]+\.css)">/g,
          (link: string, fileName: string) => {
            const sheet = bundle[fileName];
            if (sheet?.type !== 'asset' || typeof sheet.source !== 'string' || sheet.source.includes('url('))
              return link;
            // Emitted only for this page: once inlined, the file has no reader left.
            delete bundle[fileName];
            return `<style>${sheet.source.replaceAll('</style', '<\\/style')}</style>`;
          },
        );
      },
    },
  };
}
