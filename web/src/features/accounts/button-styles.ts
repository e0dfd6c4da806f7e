/** Button looks shared by the dashboard, the setup dialog and the custom-account form. */
const BASE =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50';

export const BUTTON = {
  primary: `${BASE} bg-indigo-600 px-4 py-2 text-sm text-white hover:bg-indigo-500 disabled:hover:bg-indigo-600`,
  secondary: `${BASE} border border-slate-300 bg-white px-4 py-2 text-sm text-slate-700 hover:bg-slate-50 disabled:hover:bg-white`,
  danger: `${BASE} bg-red-600 px-4 py-2 text-sm text-white hover:bg-red-500 disabled:hover:bg-red-600`,
  /** Compact buttons in table rows. */
  smallSecondary: `${BASE} border border-slate-300 bg-white px-2.5 py-1.5 text-xs text-slate-700 hover:bg-slate-50 disabled:hover:bg-white`,
  /** A compact toggle that is on (`aria-pressed`). */
  smallPressed: `${BASE} border border-indigo-300 bg-indigo-50 px-2.5 py-1.5 text-xs text-indigo-800 hover:bg-indigo-100 disabled:hover:bg-indigo-50`,
  smallDanger: `${BASE} border border-red-200 bg-white px-2.5 py-1.5 text-xs text-red-700 hover:bg-red-50 disabled:hover:bg-white`,
} as const;
