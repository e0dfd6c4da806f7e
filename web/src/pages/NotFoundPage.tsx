import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';

export default function NotFoundPage() {
  const { _ } = useLingui();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{_('notFound.heading')}</h1>
      <p className="mt-4 text-slate-600">{_('notFound.text')}</p>
      <Link to="/" className="mt-8 rounded-lg bg-indigo-600 px-5 py-2.5 font-semibold text-white hover:bg-indigo-700">
        {_('notFound.home')}
      </Link>
    </div>
  );
}
