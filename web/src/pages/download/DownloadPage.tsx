import { Link } from 'react-router-dom';
import { withBrand } from '../../../../shared/page-titles.js';
import { PLATFORM_NAMES, type Platform } from '../../../../shared/platforms.js';
import { CallToAction, CardGrid, PageHero, Section } from '../../components/content';
import { useAuth } from '../../features/auth/auth-context';
import { withLocations } from '../../../../shared/config.js';
import { useConfig } from '../../features/config/config-context';
import { DownloadButtons } from '../../features/download/DownloadButtons';
import { PLATFORM_CONTENT, downloadHeading, type SetupStep, type SystemRequirement } from '../../features/download/platforms';
import { TrialEmailForm } from '../../features/download/TrialEmailForm';
import { CLIENT_APPS } from '../../features/download/client-apps';
import { RecommendedApps } from '../../features/download/RecommendedApps';

/** One template for /download/windows, /macos, /linux, /android and /ios. */
export default function DownloadPage({ platform }: { platform: Platform }) {
  const { user } = useAuth();
  const { brandName, locationsClaim } = useConfig();
  const content = PLATFORM_CONTENT[platform];
  const brand = (text: string) => withBrand(text, brandName);
  const platformName = PLATFORM_NAMES[platform];

  return (
    <>
      <PageHero eyebrow={`Download for ${platformName}`} title={downloadHeading(platform, brandName)} subtitle={brand(content.subtitle)}>
        {/* While the session loads, `user` is null: the prerendered HTML shows the trial box. */}
        {user ? <DownloadButtons downloads={content.downloads} /> : <TrialEmailForm />}
      </PageHero>

      <Section title={`Why use ${brandName} on ${platformName}`}>
        <CardGrid
          cards={content.features.map(({ title, description, Icon }) => ({ title: withLocations(title, locationsClaim), text: brand(description), Icon }))}
        />
      </Section>

      <Section title="Getting started" intro="Four steps from download to a private connection." tone="muted">
        <div className="grid gap-10 lg:grid-cols-3">
          <SetupSteps steps={content.steps} brand={brand} />
          <Requirements requirements={content.requirements} />
        </div>
      </Section>

      <Section
        title={`Free apps for ${platformName}`}
        intro="Your subscription link works in any of these open-source apps. Download them only from their official pages."
      >
        <RecommendedApps apps={CLIENT_APPS[platform]} />
        <p className="mt-6 leading-7 text-slate-700">
          The{' '}
          <Link to="/help" className="font-medium text-indigo-700 underline">
            Help Center
          </Link>{' '}
          explains how to import your link into each of them.
        </p>
      </Section>

      <CallToAction title={content.closing.title} text={brand(content.closing.text)} />
    </>
  );
}

function SetupSteps({ steps, brand }: { steps: readonly SetupStep[]; brand(text: string): string }) {
  return (
    <ol className="space-y-6 lg:col-span-2">
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white"
          >
            {index + 1}
          </span>
          <div className="min-w-0">
            <h3 className="text-lg font-semibold text-slate-900">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-1 leading-7 break-words text-slate-700">{brand(step.description)}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

function Requirements({ requirements }: { requirements: readonly SystemRequirement[] }) {
  return (
    <div className="self-start rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h3 className="text-lg font-semibold text-slate-900">System requirements</h3>
      <dl className="mt-4 space-y-4">
        {requirements.map(({ label, value }) => (
          <div key={label}>
            <dt className="text-sm font-medium text-slate-600">{label}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
