import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

export default function GdprPage() {
  const { brandName, supportEmail, locationsClaim } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Legal"
        title="GDPR Compliance"
        subtitle="Your rights under the General Data Protection Regulation, and how to use them."
      />
      <Prose>
        <p>
          The General Data Protection Regulation (GDPR) gives people in the European Economic Area strong rights over
          their personal data, and the UK GDPR gives the same rights in the United Kingdom. At {brandName} we apply these
          rights to every customer, wherever they live. Because we collect so little, exercising them is simple.
        </p>

        <h2>The data we process</h2>
        <p>
          We process your e-mail address, your VPN accounts (plan, status, expiry date, data limit and the total data
          used) and records of your payments. We keep no VPN connection logs, so we hold no data about your online
          activity. The full list is in our <Link to="/privacy">Privacy Policy</Link>.
        </p>

        <h2>Your rights</h2>
        <h3>Right of access</h3>
        <p>
          You can ask whether we process your personal data and receive a copy of it, together with an explanation of
          why we hold it, where it came from and who it is shared with.
        </p>
        <h3>Right to rectification</h3>
        <p>
          If something we hold about you is wrong or incomplete, you can ask us to correct it. In practice that usually
          means changing the e-mail address linked to your account.
        </p>
        <h3>Right to erasure</h3>
        <p>
          You can ask us to delete your account and all personal data attached to it. We will do so unless the law
          requires us to keep something, such as payment records for tax purposes, in which case we keep only that, only
          for as long as required.
        </p>
        <h3>Right to data portability</h3>
        <p>
          You can ask for the data you gave us in a structured, commonly used, machine-readable format, so you
          can take it elsewhere.
        </p>
        <h3>Other rights</h3>
        <p>
          You can also ask us to restrict processing, object to processing based on our legitimate interests, and
          withdraw any consent you have given. You have the right to complain to the data-protection authority in the
          country where you live or work, although we would appreciate the chance to put things right first.
        </p>

        <h2>Legal bases for processing</h2>
        <ul>
          <li>
            <strong>Performance of a contract</strong>: we need your e-mail address and account records to sign you in
            and provide the VPN accounts you have claimed or bought.
          </li>
          <li>
            <strong>Legal obligation</strong>: we keep payment records for as long as tax and accounting law requires.
          </li>
          <li>
            <strong>Legitimate interests</strong>: we use limited technical data, such as the number of sign-in
            attempts, to protect the service and our customers from abuse.
          </li>
          <li>
            <strong>Consent</strong>: if we ever want to use your data for anything optional, we will ask first, and you
            can withdraw your consent at any time.
          </li>
        </ul>

        <h2>How we protect your data</h2>
        <ul>
          <li>Data minimisation: we ask only for an e-mail address and keep no connection logs.</li>
          <li>Encryption in transit: our website, API and VPN connections are encrypted.</li>
          <li>Passwordless sign-in with one-time codes, so there are no passwords to steal or reuse.</li>
          <li>Session cookies that scripts on the page cannot read.</li>
          <li>Access to customer data restricted to the few people who need it to run the service.</li>
          <li>Card details handled entirely by Stripe; they never reach our servers.</li>
        </ul>

        <h2>Data retention</h2>
        <p>
          We keep your account data for as long as you use the service, plus 30 days, then delete it. Payment records
          that the law requires us to keep are retained only for the legally required period and used for nothing else.
        </p>

        <h2>International transfers</h2>
        <p>
          Our VPN servers are located in {locationsClaim} locations around the world, and some of our service providers, including our
          payment processor Stripe, process data outside the European Economic Area. Where personal data is transferred
          to a country without an adequacy decision, we rely on safeguards recognised by the GDPR, such as the European
          Commission&apos;s Standard Contractual Clauses. Because we keep no connection logs, using a VPN server in
          another country does not create a record of your activity there.
        </p>

        <h2>Contact our data-protection officer</h2>
        <p>
          To exercise any of your rights or to ask a question about how we handle your data, contact our data-protection
          officer at <EmailLink email={supportEmail} subject="Data protection request" className="" />. Please write
          from the e-mail address linked to your account, so we can verify the request comes from you. We reply within
          one month, as the GDPR requires, and will tell you if a complex request needs longer.
        </p>
      </Prose>
    </>
  );
}
