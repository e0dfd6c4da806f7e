/**
 * The only script a prerendered page names in its HTML. The page paints from its HTML and stylesheet alone, so its
 * modules (the entry, main.tsx, and what it hydrates with, listed in this tag's data-entry and data-modules by
 * scripts/prerender.ts) are fetched once it has painted instead of sharing the connection with the stylesheet
 * the first paint waits for; main.tsx then hydrates in slices that leave the page responsive.
 *
 * The app shell (dashboard, admin), which shows nothing without its scripts, loads them at once as usual.
 */

// `?promo=CODE`: kept at once, before the page's modules load (a visitor may follow a link before they do). Written
// out, not imported: an import would make a chunk this first script waits for. remembered-promo.ts reads it back
// (its test checks that the key and the pattern here are its own).
try {
  const promo = new URLSearchParams(window.location.search).get('promo')?.trim();
  if (promo && /^[A-Za-z0-9_-]{3,40}$/.test(promo)) window.sessionStorage.setItem('vpn.promoCode', promo);
} catch {
  // Storage blocked: the code is typed by hand.
}

/** A page that has painted nothing contentful by then (a blank page) loads its modules anyway. */
const FALLBACK_MS = 3000;

const tag = document.querySelector<HTMLScriptElement>('script[data-entry]');

function load(): void {
  if (!tag?.dataset.entry) return;
  for (const href of tag.dataset.modules?.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ tag.dataset.entry);
}

/** Runs `callback` once the page has painted its first text, or at once where that will not be seen soon. */
function afterFirstPaint(callback: () => void): void {
  // A page opened in a background tab paints only once shown; a browser without paint timing never says it painted.
  if (document.visibilityState !== 'visible' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    callback();
    return;
  }
  let done = false;
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length > 0) once();
  });
  function once(): void {
    if (done) return;
    done = true;
    observer.disconnect();
    // The paint's own task ends first: the modules start loading in the next one.
    setTimeout(callback, 0);
  }
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(once, FALLBACK_MS);
}

afterFirstPaint(load);
