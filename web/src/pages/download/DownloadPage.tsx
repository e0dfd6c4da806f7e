import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PLATFORM_NAMES, type Platform } from '../../../../shared/platforms.js';
import { CallToAction, CardGrid, PageHero, Section } from '../../components/content';
import { useAuth } from '../../features/auth/auth-context';
import { useConfig, useLocationsClaim } from '../../features/config/config-context';
import { DESKTOP_PLATFORMS, type DesktopPlatform } from '../../../../shared/desktop-releases.js';
import { DownloadButtons } from '../../features/download/DownloadButtons';
import { OwnDesktopApp } from '../../features/download/OwnDesktopApp';
import { PLATFORM_CONTENT, type SetupStep, type SystemRequirement } from '../../features/download/platforms';
import { TrialEmailForm } from '../../features/download/TrialEmailForm';
import { CLIENT_APPS } from '../../features/download/client-apps';
import { RecommendedApps } from '../../features/download/RecommendedApps';
import { useFormat } from '../../i18n/format';

const isDesktop = (platform: Platform): platform is DesktopPlatform => (DESKTOP_PLATFORMS as readonly string[]).includes(platform);

/** One template for /download/windows, /macos, /linux, /android and /ios. */
export default function DownloadPage({ platform }: { platform: Platform }) {
  const { _ } = useLingui();
  const { user } = useAuth();
  const { brandName } = useConfig();
  const locationsClaim = useLocationsClaim();
  const content = PLATFORM_CONTENT[platform];
  // The platform's name is the same in every language.
  const values = { brand: brandName, locations: locationsClaim, platform: PLATFORM_NAMES[platform] };
  const text = (id: string) => _(id, values);

  return (
    <>
      <PageHero eyebrow={text('download.hero.eyebrow')} title={text('download.hero.title')} subtitle={text(content.subtitleId)}>
        {/* While the session loads, `user` is null: the prerendered HTML shows the trial box. */}
        {user ? <DownloadButtons downloads={content.downloads} /> : <TrialEmailForm />}
      </PageHero>

      <Section title={text('download.why.title')}>
        <CardGrid cards={content.features.map(({ titleId, descriptionId, Icon }) => ({ title: text(titleId), text: text(descriptionId), Icon }))} />
      </Section>

      <Section title={_('download.steps.title')} intro={_('download.steps.intro')} tone="muted">
        <div className="grid gap-10 lg:grid-cols-3">
          <SetupSteps steps={content.steps} text={text} values={values} />
          <Requirements requirements={content.requirements} />
        </div>
      </Section>

      <Section title={text('download.apps.title')} intro={_('download.apps.intro')}>
        {isDesktop(platform) && <OwnDesktopApp platform={platform} />}
        <RecommendedApps apps={CLIENT_APPS[platform]} />
        <p className="mt-6 leading-7 text-slate-700">
          <Trans id="download.apps.help" components={{ 0: <Link to="/help" className="font-medium text-indigo-700 underline" /> }} />
        </p>
      </Section>

      <CallToAction title={text(content.closing.titleId)} text={text(content.closing.textId)} />
    </>
  );
}

/** A command in a step (`<0>sudo apt install …</0>`): left to right in every language. */
const COMMAND = <code dir="ltr" />;

function SetupSteps({ steps, text, values }: { steps: readonly SetupStep[]; text(id: string): string; values: Record<string, string> }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <ol className="space-y-6 lg:col-span-2">
      {steps.map((step, index) => (
        <li key={step.titleId} className="flex gap-4">
          <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white">
            {format.number(index + 1)}
          </span>
          <div className="min-w-0">
            <h3 className="text-lg font-semibold text-slate-900">
              <span className="sr-only">{_('download.steps.number', { number: format.number(index + 1) })} </span>
              {text(step.titleId)}
            </h3>
            <p className="mt-1 leading-7 break-words text-slate-700">
              <Trans id={step.descriptionId} values={values} components={{ 0: COMMAND, 1: COMMAND, 2: COMMAND }} />
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

function Requirements({ requirements }: { requirements: readonly SystemRequirement[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <div className="self-start rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h3 className="text-lg font-semibold text-slate-900">{_('download.requirements.title')}</h3>
      <dl className="mt-4 space-y-4">
        {requirements.map(({ labelId, value }) => (
          <div key={labelId}>
            <dt className="text-sm font-medium text-slate-600">{_(labelId)}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900">{_(value.id, value.bytes === undefined ? undefined : { size: format.bytes(value.bytes) })}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
