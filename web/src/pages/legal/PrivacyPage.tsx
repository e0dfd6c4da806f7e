import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

export default function PrivacyPage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero eyebrow="Legal" title="Privacy Policy" subtitle="Last updated: March 26, 2024" />
      <Prose>
        <p>
          At {brandName} we built our service around a simple idea: we should know as little about you as possible.
          This policy explains what we collect, why, how long we keep it and what you can do about it. If anything here
          is unclear, write to us and we will explain.
        </p>

        <h2>What we collect</h2>
        <h3>Your e-mail address</h3>
        <p>
          Your e-mail address is the only personal information you give us. We use it to send you one-time sign-in
          codes, to link your VPN accounts and payments to you, and to reply when you contact support. We do not send
          it to advertisers and we do not use it for newsletters you did not ask for.
        </p>
        <h3>Account and service records</h3>
        <p>
          To run the service we keep the VPN accounts you create, with their plan, status, expiry date, data limit and
          the total amount of data used, which we need to apply the limit. We also keep a record of each payment: the
          amount, currency, date and whether it succeeded.
        </p>
        <h3>Payments</h3>
        <p>
          Card payments are processed by Stripe. You enter your card details on Stripe&apos;s checkout page, and they
          never reach our servers: we never see or store your card number, expiry date or security code. Stripe
          processes your payment details under its own privacy policy, as an independent controller for that purpose.
        </p>
        <h3>What we do not collect</h3>
        <p>
          We keep <strong>no VPN connection logs</strong>. We do not record your IP address while you are connected,
          when you connect or disconnect, which servers you use, which sites you visit or the DNS queries you make. We
          do not ask for your name, phone number or postal address. We do not use analytics or advertising trackers on
          this website.
        </p>

        <h2>How we use your information</h2>
        <ul>
          <li>To create and sign you in to your account.</li>
          <li>To provide the VPN accounts you have claimed or paid for, and to apply their limits.</li>
          <li>To process payments and refunds, and to keep the records tax law requires.</li>
          <li>To answer your questions and tell you about important changes to your account or this policy.</li>
          <li>To protect the service against abuse, for example by limiting how often sign-in codes can be requested.</li>
        </ul>
        <p>We never sell, rent or trade your information, and we never share it for advertising.</p>

        <h2>Cookies</h2>
        <p>
          We use only essential cookies: the ones that keep you signed in and protect your session. There are no
          analytics, advertising or tracking cookies. The <Link to="/cookies">Cookie Policy</Link> lists each cookie
          and what it does.
        </p>

        <h2>How long we keep your data</h2>
        <p>
          We keep your account data for as long as you use the service, plus 30 days. The extra 30 days let us handle
          refunds and questions after a plan ends. After that we delete it, except for payment records that we must keep
          for longer by law, which are stored separately and used for nothing else.
        </p>

        <h2>Your rights</h2>
        <p>You can, at any time:</p>
        <ul>
          <li>ask for a copy of the personal data we hold about you;</li>
          <li>ask us to correct it if it is wrong;</li>
          <li>ask us to delete your account and the data attached to it;</li>
          <li>ask for your data in a portable, machine-readable format;</li>
          <li>object to or ask us to restrict how we process it.</li>
        </ul>
        <p>
          To use any of these rights, e-mail us from the address linked to your account. We answer within 30 days. If
          you are in the European Economic Area or the United Kingdom, our <Link to="/gdpr">GDPR page</Link> explains
          your rights in more detail, including your right to complain to a data-protection authority.
        </p>

        <h2>Security</h2>
        <p>
          Our website and API are served only over encrypted connections. Sign-in uses one-time codes instead of
          passwords, so there are no passwords for anyone to steal, and session cookies cannot be read by scripts on the
          page. Access to our systems is restricted to the few people who need it to run the service.
        </p>

        <h2>Changes to this policy</h2>
        <p>
          When we change this policy we update the date at the top of this page. If a change affects how we use the
          data we already hold, we will tell you by e-mail before it takes effect.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about privacy, or a request about your data? Write to us at{' '}
          <EmailLink email={supportEmail} subject="Privacy question" className="" />.
        </p>
      </Prose>
    </>
  );
}
