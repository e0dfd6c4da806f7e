import type { ComponentType, ReactNode, SVGProps } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { CallToAction, PageHero, PlatformLinks, Section } from '../../components/content';
import { BookIcon, CardIcon, DownloadIcon, KeyIcon, MailIcon, PulseIcon } from '../../components/content/content-icons';

/** A topic card; the texts are message ids. */
interface SupportTopic {
  titleId: string;
  textId: string;
  to: string;
  /** The link's label, ending with an arrow the message holds in its tag <0>. */
  linkId: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const TOPICS: readonly SupportTopic[] = [
  {
    titleId: 'support.hub.help.title',
    textId: 'support.hub.help.text',
    to: '/help',
    linkId: 'support.hub.help.link',
    Icon: BookIcon,
  },
  {
    titleId: 'support.hub.contact.title',
    textId: 'support.hub.contact.text',
    to: '/contact',
    linkId: 'support.hub.contact.link',
    Icon: MailIcon,
  },
  {
    titleId: 'support.hub.status.title',
    textId: 'support.hub.status.text',
    to: '/status',
    linkId: 'support.hub.status.link',
    Icon: PulseIcon,
  },
  {
    titleId: 'support.hub.billing.title',
    textId: 'support.hub.billing.text',
    to: '/pricing',
    linkId: 'support.hub.billing.link',
    Icon: CardIcon,
  },
  {
    titleId: 'support.hub.signIn.title',
    textId: 'support.hub.signIn.text',
    to: '/login',
    linkId: 'support.hub.signIn.link',
    Icon: KeyIcon,
  },
];

export default function SupportPage() {
  const { _ } = useLingui();
  return (
    <>
      <PageHero eyebrow={_('support.eyebrow')} title={_('support.hub.title')} subtitle={_('support.hub.subtitle')} />
      <Section title={_('support.hub.topics')}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {TOPICS.map((topic) => (
            <TopicCard key={topic.to} title={_(topic.titleId)} Icon={topic.Icon}>
              <p className="mt-2 flex-1 leading-7 text-slate-600">{_(topic.textId)}</p>
              <Link to={topic.to} className="mt-4 inline-block font-semibold text-indigo-700 underline-offset-4 hover:underline">
                <Trans id={topic.linkId} components={{ 0: <span aria-hidden="true" /> }} />
              </Link>
            </TopicCard>
          ))}
          <TopicCard title={_('support.hub.download.title')} Icon={DownloadIcon}>
            <p className="mt-2 leading-7 text-slate-600">{_('support.hub.download.text')}</p>
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
