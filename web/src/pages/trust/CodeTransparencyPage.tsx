import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { CodeIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { SearchIcon, UsersIcon } from '../../components/content/content-icons';

const PRINCIPLES: readonly Card[] = [
  {
    title: 'Public code',
    text: 'The panel that runs our VPN servers and the app you install are both open source. Their full source and history are on GitHub.',
    Icon: CodeIcon,
  },
  {
    title: 'Anyone can audit',
    text: 'You, a security researcher or a curious friend can read the code, run it yourself and check that it does what we say.',
    Icon: SearchIcon,
  },
  {
    title: 'Fixes in the open',
    text: 'Bugs and security issues are reported, discussed and fixed in public, where everyone can see how quickly they are handled.',
    Icon: ShieldIcon,
  },
  {
    title: 'No lock-in',
    text: 'Because the client is open source and uses standard subscription links, you are never tied to a closed, proprietary app.',
    Icon: UsersIcon,
  },
];

const AUDIT_STEPS: readonly { title: string; text: string }[] = [
  {
    title: 'Read the source',
    text: 'Start with the repositories on our open-source page. The README files explain how each project is organised.',
  },
  {
    title: 'Follow the changes',
    text: 'The commit history and release notes show what changed in every version, and who changed it.',
  },
  {
    title: 'Watch what the app sends',
    text: 'Run the client behind a network monitor and compare what leaves your device with what the code says it should send.',
  },
  {
    title: 'Ask questions',
    text: 'Open an issue on the project, or write to us. Good questions make the software better for everyone.',
  },
];

export default function CodeTransparencyPage() {
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Why trust us"
        title="Code Transparency"
        subtitle={`Trust should be earned, and checkable. ${brandName} is built on code that anyone can read, so our privacy claims can be verified rather than just believed.`}
      />

      <Section title="What transparency means here">
        <CardGrid cards={PRINCIPLES} columns={2} />
      </Section>

      <Section tone="muted" width="narrow" title="How to audit it yourself">
        <ol className="space-y-6">
          {AUDIT_STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-1 leading-7 text-slate-700">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section width="narrow" title="Where to find the code">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            Our <Link to="/why-trust-us/open-source" className={TEXT_LINK_CLASS}>open-source page</Link> lists the
            projects we rely on, with links to their repositories, stars, forks and contributors on GitHub.
          </p>
          <p>
            Open code is one half of the story; collecting as little as possible is the other. See what we keep, and what
            we never record, on our <Link to="/features/no-tracking" className={TEXT_LINK_CLASS}>no-tracking</Link>{' '}
            page.
          </p>
          <p className="pt-2">
            <Link to="/why-trust-us/open-source" className={BUTTON_LINK_CLASS}>See our open-source projects</Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
