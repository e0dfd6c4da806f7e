import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { CodeIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { useFormat } from '../../i18n/format';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { SearchIcon, UsersIcon } from '../../components/content/content-icons';

const PRINCIPLES: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'trust.transparency.principle.public.title', textId: 'trust.transparency.principle.public.text', Icon: CodeIcon },
  { titleId: 'trust.transparency.principle.audit.title', textId: 'trust.transparency.principle.audit.text', Icon: SearchIcon },
  { titleId: 'trust.transparency.principle.fixes.title', textId: 'trust.transparency.principle.fixes.text', Icon: ShieldIcon },
  { titleId: 'trust.transparency.principle.lockIn.title', textId: 'trust.transparency.principle.lockIn.text', Icon: UsersIcon },
];

const AUDIT_STEPS: readonly { titleId: string; textId: string }[] = [
  { titleId: 'trust.transparency.audit.read.title', textId: 'trust.transparency.audit.read.text' },
  { titleId: 'trust.transparency.audit.follow.title', textId: 'trust.transparency.audit.follow.text' },
  { titleId: 'trust.transparency.audit.watch.title', textId: 'trust.transparency.audit.watch.text' },
  { titleId: 'trust.transparency.audit.ask.title', textId: 'trust.transparency.audit.ask.text' },
];

export default function CodeTransparencyPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  const format = useFormat();
  return (
    <>
      <PageHero
        eyebrow={_('trust.eyebrow')}
        title={_('trust.transparency.hero.title')}
        subtitle={_('trust.transparency.hero.subtitle', { brand: brandName })}
      />

      <Section title={_('trust.transparency.principles.title')}>
        <CardGrid cards={PRINCIPLES.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} columns={2} />
      </Section>

      <Section tone="muted" width="narrow" title={_('trust.transparency.audit.title')}>
        <ol className="space-y-6">
          {AUDIT_STEPS.map((step, index) => (
            <li key={step.titleId} className="flex gap-4">
              <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white" aria-hidden="true">
                {format.number(index + 1)}
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{_(step.titleId)}</h3>
                <p className="mt-1 leading-7 text-slate-700">{_(step.textId)}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section width="narrow" title={_('trust.transparency.code.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            <Trans id="trust.transparency.code.openSource" components={{ 0: <Link to="/why-trust-us/open-source" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p>
            <Trans id="trust.transparency.code.noTracking" components={{ 0: <Link to="/features/no-tracking" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p className="pt-2">
            <Link to="/why-trust-us/open-source" className={BUTTON_LINK_CLASS}>
              {_('trust.transparency.code.projects')}
            </Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
