import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

export default function TermsPage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero eyebrow="Legal" title="Terms of Service" subtitle="Last updated: March 26, 2024" />
      <Prose>
        <h2>Introduction</h2>
        <p>
          These terms apply when you use the {brandName} website, your {brandName} account and the VPN service
          (together, the &quot;service&quot;). By creating an account or using the service you agree to them. If you
          do not agree, please do not use the service.
        </p>
        <p>
          How we handle your data is described in our <Link to="/privacy">Privacy Policy</Link>, which forms part of
          these terms.
        </p>

        <h2>Service Usage</h2>
        <p>
          You must be at least <strong>18 years old</strong> to create an account or buy a plan. You sign in with a
          one-time code sent to your e-mail address, so keep access to that inbox secure: anyone who can read your
          e-mail can sign in to your account.
        </p>
        <p>
          Each VPN account comes with a subscription link. Treat it like a password: do not publish it or share it
          outside your household. You may use it on as many of your own devices as you like, within your plan&apos;s
          data limit and duration.
        </p>

        <h2>Prohibited Activities</h2>
        <p>You agree not to use the service to:</p>
        <ul>
          <li>break any law that applies to you, or help anyone else do so;</li>
          <li>send spam, run phishing campaigns or distribute malware;</li>
          <li>attack, scan or try to gain unauthorised access to other networks, systems or accounts;</li>
          <li>launch denial-of-service attacks or otherwise disrupt the service or other users;</li>
          <li>share, publish or resell your subscription link or access to the service;</li>
          <li>infringe the intellectual-property rights of others;</li>
          <li>create or distribute content that exploits or harms children.</li>
        </ul>
        <p>
          Because we keep no connection logs, we cannot tell what you do through the VPN. We can, however, act on abuse
          we detect at the network level, such as attacks launched from our servers.
        </p>

        <h2>Payment Terms</h2>
        <ul>
          <li>All prices are in US dollars (USD).</li>
          <li>Payments are processed by Stripe. We never see or store your card details.</li>
          <li>
            <strong>Subscriptions auto-renew unless cancelled.</strong> A plan marked as renewing automatically is
            charged to your card at the end of every period, at the price you signed up at, until you cancel it. You
            can cancel at any time from your dashboard (Cancel auto-renew): the cancellation takes effect at the end of
            the period you have already paid for, you keep the service until then, and you are not charged again. If a
            renewal payment fails, your account may keep working for a short grace period while you update your card
            from your dashboard (Manage billing); after that it is paused.
          </li>
          <li>
            A <strong>one-off plan</strong> is a single payment for the period it covers and is never charged again. To
            keep using the service after such a period ends, renew the account from your dashboard (Renew), which is a
            new payment.
          </li>
          <li>
            You can ask for a full refund within <strong>30 days of purchase</strong>. Business customers can ask for a
            refund within 14 days, for orders of at least 5 licenses. See our{' '}
            <Link to="/features/money-back-guarantee">money-back guarantee</Link> for how to ask.
          </li>
          <li>
            We may change our prices. A new price applies to purchases made after the change, never to a period already
            paid, and a renewing plan keeps renewing at the price you signed up at.
          </li>
        </ul>

        <h2>Availability</h2>
        <p>
          We aim for <strong>99.9% uptime</strong>. This is a target, not a guarantee: maintenance, failures at our
          hosting providers, network problems and events outside our control can interrupt the service. You can
          check the current state of every region on our{' '}
          <Link to="/status">service status page</Link>. Server locations may be added, moved or retired over time.
        </p>

        <h2>Liability</h2>
        <p>
          We provide the service &quot;as is&quot; and &quot;as available&quot;. A VPN improves your privacy and
          security, but no service can protect you from every risk, and we do not promise that the service will meet
          every need or work with every website or network.
        </p>
        <p>
          To the extent the law allows, we are not liable for indirect or consequential losses, such as lost profits or
          lost data, and our total liability to you is limited to the amount you paid us in the 12 months before the
          claim. Nothing in these terms limits liability that cannot be limited by law, or your rights as a consumer.
        </p>

        <h2>Termination</h2>
        <p>
          You can stop using the service at any time and ask us to delete your account. We may suspend or close an
          account that breaks these terms, in particular the prohibited activities above. Where we close an account for a
          reason other than a breach of these terms, we refund the unused part of any period you have paid for.
        </p>
        <p>
          After an account is closed, we keep its data for 30 days and then delete it, as described in the{' '}
          <Link to="/privacy">Privacy Policy</Link>.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about these terms? Write to us at{' '}
          <EmailLink email={supportEmail} subject="Terms of Service" className="" />.
        </p>
      </Prose>
    </>
  );
}
