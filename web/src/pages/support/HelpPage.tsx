import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS } from '../../../../shared/constants.js';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { useFormat } from '../../i18n/format';

const CODE_MINUTES = OTP_TTL_SECONDS / 60;

export default function HelpPage() {
  const { brandName, supportEmail } = useConfig();
  const { _ } = useLingui();
  const format = useFormat();
  const strong = { 0: <strong /> };
  return (
    <>
      <PageHero eyebrow={_('support.eyebrow')} title={_('support.help.title')} subtitle={_('support.help.subtitle')} />
      <Prose>
        <h2>{_('support.help.signIn.heading')}</h2>
        <p>{_('support.help.signIn.intro', { brand: brandName })}</p>
        <ol>
          <li>
            <Trans id="support.help.signIn.step1" components={{ 0: <Link to="/login" />, 1: <strong /> }} />
          </li>
          <li>{_('support.help.signIn.step2', { digits: format.number(OTP_LENGTH), minutes: CODE_MINUTES })}</li>
          <li>
            <Trans id="support.help.signIn.step3" components={strong} />
          </li>
        </ol>

        {/* Only where the store offers a free trial (styles.css, `no-trial`). */}
        <div data-claim="trial">
          <h2>{_('support.help.trial.heading')}</h2>
          <p>
            <Trans id="support.help.trial.text" components={{ 0: <strong />, 1: <Link to="/pricing" /> }} />
          </p>
        </div>

        <h2>{_('support.help.import.heading')}</h2>
        <p>
          <Trans id="support.help.import.link" components={strong} />
        </p>
        <p>{_('support.help.import.copy')}</p>

        <h3>{_('support.help.hiddify.heading')}</h3>
        <ol>
          <li>
            <Trans
              id="support.help.hiddify.install"
              components={{
                0: <Link to="/download/windows" />,
                1: <Link to="/download/macos" />,
                2: <Link to="/download/linux" />,
                3: <Link to="/download/android" />,
                4: <Link to="/download/ios" />,
              }}
            />
          </li>
          <li>
            <Trans id="support.help.hiddify.add" components={strong} />
          </li>
          <li>
            <Trans id="support.help.hiddify.import" components={strong} />
          </li>
          <li>{_('support.help.hiddify.connect')}</li>
        </ol>

        <h3>{_('support.help.v2rayng.heading')}</h3>
        <ol>
          <li>
            <Trans id="support.help.v2rayng.group" components={strong} />
          </li>
          <li>{_('support.help.v2rayng.paste', { brand: brandName })}</li>
          <li>
            <Trans id="support.help.v2rayng.update" components={strong} />
          </li>
          <li>{_('support.help.v2rayng.connect')}</li>
        </ol>

        <h3>{_('support.help.clash.heading')}</h3>
        <ol>
          <li>
            <Trans id="support.help.clash.import" components={strong} />
          </li>
          <li>{_('support.help.clash.activate')}</li>
          <li>
            <Trans id="support.help.clash.proxy" components={strong} />
          </li>
          <li>
            <Trans id="support.help.clash.server" components={strong} />
          </li>
        </ol>

        <h3>{_('support.help.singbox.heading')}</h3>
        <ol>
          <li>
            <Trans id="support.help.singbox.profile" components={strong} />
          </li>
          <li>
            <Trans id="support.help.singbox.remote" components={strong} />
          </li>
          <li>
            <Trans id="support.help.singbox.enable" components={strong} />
          </li>
        </ol>

        <h2>{_('support.help.troubleshooting.heading')}</h2>
        <div className="mt-6 space-y-3">
          <Question title={_('support.help.troubleshooting.noCode.title')}>{_('support.help.troubleshooting.noCode.text')}</Question>
          <Question title={_('support.help.troubleshooting.codeRejected.title')}>
            {_('support.help.troubleshooting.codeRejected.text', { minutes: CODE_MINUTES, attempts: OTP_MAX_ATTEMPTS })}
          </Question>
          <Question title={_('support.help.troubleshooting.noWebsites.title')}>{_('support.help.troubleshooting.noWebsites.text')}</Question>
          <Question title={_('support.help.troubleshooting.expired.title')}>
            <Trans id="support.help.troubleshooting.expired.text" components={strong} />
          </Question>
          <Question title={_('support.help.troubleshooting.slow.title')}>{_('support.help.troubleshooting.slow.text')}</Question>
          <Question title={_('support.help.troubleshooting.stillStuck.title')}>
            <Trans id="support.help.troubleshooting.stillStuck.text" components={{ 0: <Link to="/status" />, 1: <Link to="/contact" /> }} />
          </Question>
        </div>

        <h2>{_('support.help.billing.heading')}</h2>
        <ul>
          <li>{_('support.help.billing.card')}</li>
          <li>{_('support.help.billing.confirmed')}</li>
          <li>
            <Trans id="support.help.billing.renewing" components={strong} />
          </li>
          <li>
            <Trans id="support.help.billing.oneOff" components={strong} />
          </li>
          <li>{_('support.help.billing.guarantee')}</li>
          <li>
            <Trans
              id="support.help.billing.refund"
              values={{
                email: (
                  <a href={`mailto:${supportEmail}`} dir="ltr" className="break-words">
                    {supportEmail}
                  </a>
                ),
              }}
            />
          </li>
        </ul>
      </Prose>
    </>
  );
}

function Question({ title, children }: { title: string; children: ReactNode }) {
  return (
    <details className="rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200">
      <summary className="cursor-pointer font-semibold text-slate-900">{title}</summary>
      <p>{children}</p>
    </details>
  );
}
