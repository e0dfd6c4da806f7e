import { useLingui } from '@lingui/react';

interface ErrorScreenProps {
  message?: string;
}

/** Shown when rendering failed: the spec's 'Something went wrong' screen. */
export function ErrorScreen({ message }: ErrorScreenProps) {
  const { _ } = useLingui();
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <div role="alert" className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-lg ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold text-slate-900">{_('error.title')}</h1>
        <p className="mt-3 break-words text-slate-600">{message || _('error.unexpected')}</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 rounded-lg bg-indigo-600 px-5 py-2.5 font-semibold text-white hover:bg-indigo-700"
        >
          {_('error.reload')}
        </button>
      </div>
    </div>
  );
}
