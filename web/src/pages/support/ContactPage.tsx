import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PageHero, Section } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { MailIcon } from '../../components/content/content-icons';

/** Message ids of the list "What to include in your message". */
const WHAT_TO_INCLUDE: readonly string[] = [
  'support.contact.include.email',
  'support.contact.include.device',
  'support.contact.include.app',
  'support.contact.include.details',
];

export default function ContactPage() {
  const { supportEmail } = useConfig();
  const { _ } = useLingui();
  return (
    <>
      <PageHero eyebrow={_('support.eyebrow')} title={_('support.contact.title')} subtitle={_('support.contact.subtitle')} />
      <Section width="narrow">
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <div className="flex items-start gap-4">
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
              <MailIcon className="size-6" />
            </span>
            <div className="min-w-0">
              <h2 className="text-xl font-semibold text-slate-900">{_('support.contact.email.heading')}</h2>
              <a href={`mailto:${supportEmail}`} className="mt-1 block text-lg font-semibold break-words text-indigo-700 underline">
                {supportEmail}
              </a>
              <p className="mt-3 leading-7 text-slate-700">
                <Trans
                  id="support.contact.email.text"
                  components={{
                    0: <Link to="/help" className="font-medium text-indigo-700 underline" />,
                    1: <Link to="/status" className="font-medium text-indigo-700 underline" />,
                  }}
                />
              </p>
            </div>
          </div>
        </div>

        <h2 className="mt-12 text-2xl font-bold tracking-tight text-slate-900">{_('support.contact.include.heading')}</h2>
        <ul className="mt-4 list-disc space-y-2 ps-6 leading-7 text-slate-700">
          {WHAT_TO_INCLUDE.map((id) => (
            <li key={id}>{_(id)}</li>
          ))}
        </ul>
        <p className="mt-6 rounded-xl bg-amber-50 p-4 leading-7 text-amber-950 ring-1 ring-amber-200">{_('support.contact.warning')}</p>
      </Section>
    </>
  );
}
