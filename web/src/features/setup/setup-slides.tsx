import type { ComponentType, SVGProps } from 'react';
import { createIcon } from '../../components/icons';
import { CheckCircleIcon, DownloadIcon } from '../../components/content/content-icons';

/** Line drawings for the step cards (no screenshots: these are illustrations, not the apps' screens). */
const QrScanIcon = createIcon(
  <>
    <path d="M3 7V4a1 1 0 0 1 1-1h3M17 3h3a1 1 0 0 1 1 1v3M21 17v3a1 1 0 0 1-1 1h-3M7 21H4a1 1 0 0 1-1-1v-3" />
    <rect x="7" y="7" width="4" height="4" />
    <rect x="13" y="13" width="4" height="4" />
    <path d="M13 7h4v2M7 15v2h2" />
  </>,
);
const PlusSquareIcon = createIcon(
  <>
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M12 8v8M8 12h8" />
  </>,
);
const PowerIcon = createIcon(
  <>
    <path d="M12 3v9" />
    <path d="M6.3 6.3a8 8 0 1 0 11.4 0" />
  </>,
);

export interface SetupSlide {
  /** Message ids of the slide's title and text. */
  titleId: string;
  textId: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

export const SETUP_SLIDES: readonly SetupSlide[] = [
  { titleId: 'account.slides.install.title', textId: 'account.slides.install.text', Icon: DownloadIcon },
  { titleId: 'account.slides.link.title', textId: 'account.slides.link.text', Icon: QrScanIcon },
  { titleId: 'account.slides.profile.title', textId: 'account.slides.profile.text', Icon: PlusSquareIcon },
  { titleId: 'account.slides.connect.title', textId: 'account.slides.connect.text', Icon: PowerIcon },
  { titleId: 'account.slides.check.title', textId: 'account.slides.check.text', Icon: CheckCircleIcon },
];
