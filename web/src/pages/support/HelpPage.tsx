import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS } from '../../../../shared/constants.js';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';

const CODE_MINUTES = OTP_TTL_SECONDS / 60;

export default function HelpPage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Support"
        title="Help Center"
        subtitle="Step-by-step guides: signing in, setting up your VPN client, and fixing connection problems."
      />
      <Prose>
        <h2>Signing in with your e-mail code</h2>
        <p>
          {brandName} has no passwords. You sign in, and create your account the first time, with a one-time code sent
          to your e-mail address.
        </p>
        <ol>
          <li>
            Go to <Link to="/login">Sign in</Link>, enter your e-mail address and select <strong>Instant Access</strong>.
          </li>
          <li>
            Open the e-mail from us and copy the {OTP_LENGTH}-digit code. It works for {CODE_MINUTES} minutes and only
            once.
          </li>
          <li>
            Type the code and select <strong>Verify Code</strong>. You land on <strong>My VPN Accounts</strong>, your
            dashboard.
          </li>
        </ol>

        <h2>Starting the free trial</h2>
        <p>
          The free trial needs no credit card. After signing in, find the trial in <strong>Available Plans</strong> on
          your dashboard and claim it: a VPN account with its own subscription link is created right away. Each
          account can use the trial once; after that the button reads <strong>Trial Already Used</strong> and you can
          pick one of the paid plans on the <Link to="/pricing">pricing page</Link>.
        </p>

        <h2>Importing your subscription into a VPN app</h2>
        <p>
          Every VPN account on your dashboard has a <strong>subscription link</strong> and a <strong>QR code</strong>.
          The link holds your servers and settings; a VPN app that imports it loads your servers and keeps them up to
          date, and it gets the format it needs automatically. Keep the link private: anyone who has it can use your
          plan.
        </p>
        <p>
          On your dashboard, copy the link with the copy button, or show the QR code to scan it with a phone. Then
          follow the steps for your app.
        </p>

        <h3>Hiddify (Windows, macOS, Linux, Android, iOS) — recommended</h3>
        <ol>
          <li>
            Install Hiddify from the download page for your device, e.g. <Link to="/download/windows">Windows</Link>,{' '}
            <Link to="/download/macos">macOS</Link>, <Link to="/download/linux">Linux</Link>,{' '}
            <Link to="/download/android">Android</Link> or <Link to="/download/ios">iOS</Link>.
          </li>
          <li>
            Open Hiddify and tap the <strong>+</strong> button (New Profile).
          </li>
          <li>
            Choose <strong>Add from clipboard</strong> after copying your link, or <strong>Scan QR code</strong> on a
            phone and point the camera at the QR code on your dashboard.
          </li>
          <li>Select the new profile and press the large connect button. Allow the VPN request the first time.</li>
        </ol>

        <h3>v2rayNG (Android)</h3>
        <ol>
          <li>
            Open the menu and choose <strong>Subscription group setting</strong>, then tap <strong>+</strong>.
          </li>
          <li>Enter a name (for example {brandName}), paste your subscription link into the URL field and save.</li>
          <li>
            Back on the main screen, open the <strong>⋮</strong> menu and choose <strong>Update subscription</strong>.
          </li>
          <li>Pick a server from the list and tap the round V button at the bottom to connect.</li>
        </ol>

        <h3>Clash Verge Rev (Windows, macOS, Linux)</h3>
        <ol>
          <li>
            Open <strong>Profiles</strong>, paste your subscription link into the field at the top and select{' '}
            <strong>Import</strong>.
          </li>
          <li>Click the new profile to make it the active one.</li>
          <li>
            In <strong>Settings</strong>, turn on <strong>System Proxy</strong>, or <strong>TUN Mode</strong> to send
            every application through the VPN.
          </li>
          <li>
            Choose a server under <strong>Proxies</strong>, or leave automatic selection on.
          </li>
        </ol>

        <h3>sing-box (Android, iOS, macOS)</h3>
        <ol>
          <li>
            Open <strong>Profiles</strong> and create a <strong>New Profile</strong>.
          </li>
          <li>
            Give it a name, set the type to <strong>Remote</strong>, paste your subscription link as the URL and
            create it.
          </li>
          <li>
            Go to the <strong>Dashboard</strong>, select the profile and tap <strong>Enable</strong>. Allow the VPN
            configuration when your device asks.
          </li>
        </ol>

        <h2>Troubleshooting</h2>
        <div className="mt-6 space-y-3">
          <Question title="The sign-in code never arrived">
            Check your spam or junk folder and make sure the address is spelled correctly. Delivery can take a minute;
            if nothing has arrived by then, go back and ask for a new code.
          </Question>
          <Question title="My code is not accepted">
            Use the newest code you received: each code works once, for {CODE_MINUTES} minutes, and is locked after{' '}
            {OTP_MAX_ATTEMPTS} wrong attempts. Ask for a new code and type it without spaces.
          </Question>
          <Question title="The app connects, but websites do not load">
            Update the subscription in your app (most apps have an update or refresh button on the profile), then try
            another location. Make sure your device&apos;s date and time are set automatically, and turn off any other
            VPN or proxy app, which can fight over the connection.
          </Question>
          <Question title="The app says my subscription has expired or is out of data">
            Open your dashboard: each VPN account shows its status, expiry date, data limit and the traffic used. A plan
            that renews automatically is renewed on its own; if the dashboard says your last payment failed, press{' '}
            <strong>Manage billing</strong> to update your card. When a one-off plan has run out, press{' '}
            <strong>Renew</strong> on the account to pay for another period (the subscription link stays the same), or
            buy a new plan from <strong>Available Plans</strong>.
          </Question>
          <Question title="The connection is slow">
            Choose a location closer to you, or let the app pick the fastest server automatically. Switching between
            Wi-Fi and mobile data can also help tell a slow local network from a slow server.
          </Question>
          <Question title="Still not working?">
            Check the <Link to="/status">service status</Link> to see whether a region is down. If everything is up,{' '}
            <Link to="/contact">contact us</Link> and tell us your device, the app you use and what you see.
          </Question>
        </div>

        <h2>Billing and refunds</h2>
        <ul>
          <li>Plans are paid by credit or debit card through our payment provider; we never see your card number.</li>
          <li>
            After you pay, your dashboard shows the new VPN account as soon as the payment is confirmed, usually within
            a few seconds.
          </li>
          <li>
            Plans marked as renewing are charged automatically at the end of every period until you cancel. Your
            dashboard shows the next renewal date and amount; press <strong>Cancel auto-renew</strong> on the account
            at any time and it stops at the end of the period you have paid for, with no further charge (
            <strong>Resume</strong> turns it back on until then). <strong>Manage billing</strong> updates your card and
            shows your invoices.
          </li>
          <li>
            One-off plans are paid once and your card is never charged again. To extend such an account, press{' '}
            <strong>Renew</strong> on it in your dashboard before it expires; it keeps the same subscription link.
          </li>
          <li>
            Every plan has a 30-day money-back guarantee. Business purchases (a minimum of 5 licenses) can be refunded
            within 14 days.
          </li>
          <li>
            To ask for a refund, write to{' '}
            <a href={`mailto:${supportEmail}`} className="break-words">
              {supportEmail}
            </a>{' '}
            from the e-mail address of your account.
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
