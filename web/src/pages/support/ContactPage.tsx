import { Link } from 'react-router-dom';
import { PageHero, Section } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { MailIcon } from '../../components/content/content-icons';

const WHAT_TO_INCLUDE: readonly string[] = [
  'The e-mail address you sign in with, so we can find your account.',
  'Your device and its system version, for example "Windows 11" or "iPhone, iOS 17".',
  'The VPN app you use and its version, for example Hiddify or v2rayNG.',
  'What you tried, what happened, and any error message (a screenshot helps).',
];

export default function ContactPage() {
  const { supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Support"
        title="Contact Us"
        subtitle="Reach the support team by e-mail. We answer every message."
      />
      <Section width="narrow">
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <div className="flex items-start gap-4">
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
              <MailIcon className="size-6" />
            </span>
            <div className="min-w-0">
              <h2 className="text-xl font-semibold text-slate-900">E-mail support</h2>
              <a
                href={`mailto:${supportEmail}`}
                className="mt-1 block text-lg font-semibold break-words text-indigo-700 underline"
              >
                {supportEmail}
              </a>
              <p className="mt-3 leading-7 text-slate-700">
                We usually reply within one business day, often much sooner. For the quickest answer, check the{' '}
                <Link to="/help" className="font-medium text-indigo-700 underline">
                  Help Center
                </Link>{' '}
                and the{' '}
                <Link to="/status" className="font-medium text-indigo-700 underline">
                  service status
                </Link>{' '}
                first.
              </p>
            </div>
          </div>
        </div>

        <h2 className="mt-12 text-2xl font-bold tracking-tight text-slate-900">What to include in your message</h2>
        <ul className="mt-4 list-disc space-y-2 pl-6 leading-7 text-slate-700">
          {WHAT_TO_INCLUDE.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="mt-6 rounded-xl bg-amber-50 p-4 leading-7 text-amber-950 ring-1 ring-amber-200">
          Never send us your sign-in code or your full subscription link. We will never ask for them: anyone who has
          them can use your account.
        </p>
      </Section>
    </>
  );
}
