import type { ReactNode } from 'react';

/**
 * A text that promises the free trial, with what reads instead when there is none to promise: both are in the page
 * (prerendered pages are drawn once for every store), and the site flags on <html> show one (styles.css, `no-trial`
 * from shared/site-template.ts `siteFlags`: no trial plan on sale, or the operator switched the promise off).
 */
export function TrialClaim({ trial, otherwise = null }: { trial: ReactNode; otherwise?: ReactNode }) {
  return (
    <>
      <span data-claim="trial">{trial}</span>
      {otherwise !== null && <span data-unless="trial">{otherwise}</span>}
    </>
  );
}
