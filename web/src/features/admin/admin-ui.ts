/** Class names shared by the admin tabs, so every tab matches the Users tab. */
export const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none disabled:bg-slate-50 disabled:opacity-60 aria-[invalid=true]:border-red-400';

const buttonBase =
  'inline-flex items-center justify-center gap-2 rounded-lg text-sm font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60';

export const buttonClass = {
  primary: `${buttonBase} bg-indigo-600 px-4 py-2 text-white hover:bg-indigo-700`,
  secondary: `${buttonBase} border border-slate-300 bg-white px-4 py-2 text-slate-700 hover:bg-slate-50`,
  danger: `${buttonBase} bg-red-600 px-4 py-2 text-white hover:bg-red-700`,
} as const;

/** Small buttons in a table row's Actions cell. */
export const rowButtonClass = {
  // whitespace-nowrap: a narrow Actions column must not break "编辑" into a character per line.
  neutral: `${buttonBase} whitespace-nowrap border border-slate-300 bg-white px-2.5 py-1 text-slate-700 hover:bg-slate-50`,
  danger: `${buttonBase} whitespace-nowrap border border-red-200 bg-white px-2.5 py-1 text-red-700 hover:bg-red-50`,
} as const;

export const cardClass = 'rounded-xl bg-white shadow-sm ring-1 ring-slate-200';
