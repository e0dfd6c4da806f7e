/** What the payment fakes' HTML pages share: their frame, and escaping text into it. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The frame's own rules, the same on every fake's page; a fake's `style` follows them and may override them. */
const FRAME_STYLE = `
  body { margin: 0; padding: 2rem 1rem; }
  .test-mode { margin: 0 0 1.25rem; padding: 0.6rem 0.8rem; background: #fff4e5; color: #6b3900; border: 1px solid #f5c27a; border-radius: 0.5rem; font-size: 0.9rem; }
  .error { color: #b42318; font-weight: 600; }
`;

/**
 * A fake provider's page: `notice` says plainly, at the top, that nothing real happens there; `style` is the
 * provider's look (colours, the `main` box, its buttons).
 */
export function fakePage(options: { title: string; style: string; notice: string; content: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(options.title)}</title>
<style>${FRAME_STYLE}${options.style}</style>
</head>
<body>
<main>
<p class="test-mode" role="note">${options.notice}</p>
${options.content}
</main>
</body>
</html>
`;
}
