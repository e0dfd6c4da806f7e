import type { ComponentType, ReactNode, SVGProps } from 'react';
import { Link } from 'react-router-dom';
import { CallToAction, PageHero, PlatformLinks, Section } from '../../components/content';
import { BookIcon, CardIcon, DownloadIcon, KeyIcon, MailIcon, PulseIcon } from '../../components/content/content-icons';

interface SupportTopic {
  title: string;
  text: string;
  to: string;
  linkLabel: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const TOPICS: readonly SupportTopic[] = [
  {
    title: 'Help Center',
    text: 'Step-by-step guides for signing in, importing your subscription into a VPN app and fixing connection problems.',
    to: '/help',
    linkLabel: 'Browse the guides',
    Icon: BookIcon,
  },
  {
    title: 'Contact Us',
    text: 'Still stuck? Write to our support team. A real person reads and answers every message.',
    to: '/contact',
    linkLabel: 'Get in touch',
    Icon: MailIcon,
  },
  {
    title: 'Service Status',
    text: 'Check whether the website, the database and every VPN region are up right now.',
    to: '/status',
    linkLabel: 'See the status',
    Icon: PulseIcon,
  },
  {
    title: 'Plans and billing',
    text: 'Compare plans, see what each costs, and read about refunds and renewals.',
    to: '/pricing',
    linkLabel: 'See pricing',
    Icon: CardIcon,
  },
  {
    title: 'Signing in',
    text: 'No password needed: enter your e-mail address and we send you a 6-digit code to sign in.',
    to: '/login',
    linkLabel: 'Sign in',
    Icon: KeyIcon,
  },
];

export default function SupportPage() {
  return (
    <>
      <PageHero
        eyebrow="Support"
        title="How can we help?"
        subtitle="Get help with setup, your account and billing, or get in touch with our team."
      />
      <Section title="Support topics">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {TOPICS.map((topic) => (
            <TopicCard key={topic.to} title={topic.title} Icon={topic.Icon}>
              <p className="mt-2 flex-1 leading-7 text-slate-600">{topic.text}</p>
              <Link to={topic.to} className="mt-4 inline-block font-semibold text-indigo-700 underline-offset-4 hover:underline">
                {topic.linkLabel} <span aria-hidden="true">→</span>
              </Link>
            </TopicCard>
          ))}
          <TopicCard title="Download the app" Icon={DownloadIcon}>
            <p className="mt-2 leading-7 text-slate-600">Set-up guides and downloads for every platform:</p>
            <PlatformLinks />
          </TopicCard>
        </ul>
      </Section>
      <CallToAction />
    </>
  );
}

interface TopicCardProps {
  title: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  children: ReactNode;
}

function TopicCard({ title, Icon, children }: TopicCardProps) {
  return (
    <li className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <span className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
        <Icon className="size-6" />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
      {children}
    </li>
  );
}
