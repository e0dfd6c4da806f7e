import { createIcon } from '../icons';

/** Decorative icons of the content pages (kept out of the bundle every page loads). */

export const AlertIcon = createIcon(
  <>
    <path d="M10.3 3.9L1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
    <path d="M12 9v4M12 17h.01" />
  </>,
);
export const BanIcon = createIcon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M4.9 4.9l14.2 14.2" />
  </>,
);
export const BookIcon = createIcon(<path d="M4 5a2 2 0 0 1 2-2h14v16H6a2 2 0 0 0-2 2V5zM4 21a2 2 0 0 1 2-2h14" />);
export const CardIcon = createIcon(
  <>
    <rect x="2" y="5" width="20" height="14" rx="2" />
    <path d="M2 10h20M6 15h4" />
  </>,
);
export const CheckCircleIcon = createIcon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M8 12l3 3 5-6" />
  </>,
);
export const CheckIcon = createIcon(<path d="M5 12l5 5L20 7" />);
export const ClockIcon = createIcon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 6v6l4 2" />
  </>,
);
export const CoinIcon = createIcon(
  <>
    <circle cx="12" cy="12" r="9" />
    <circle cx="12" cy="12" r="5" />
  </>,
);
export const DashIcon = createIcon(<path d="M6 12h12" />);
/** A gem (Crypto Pay: TON and stablecoins in the Telegram wallet). */
export const GemIcon = createIcon(
  <>
    <path d="M6 3h12l4 6-10 12L2 9z" />
    <path d="M2 9h20M12 21L8 9l4-6 4 6z" />
  </>,
);
/** A wallet (the customer's balance here). */
export const WalletIcon = createIcon(
  <>
    <path d="M3 7a2 2 0 0 1 2-2h13v4" />
    <rect x="3" y="7" width="18" height="13" rx="2" />
    <path d="M16 13.5h.01" />
  </>,
);
/** A phone with a bolt (SBP, the Faster Payments System: paid in the bank's app). */
export const FastPayIcon = createIcon(
  <>
    <rect x="6" y="2" width="12" height="20" rx="2" />
    <path d="M13 6l-3 5h4l-3 5" />
  </>,
);
export const DownloadIcon = createIcon(<path d="M12 3v12M7 10l5 5 5-5M5 21h14" />);
export const ExternalLinkIcon = createIcon(<path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />);
export const EyeOffIcon = createIcon(
  <path d="M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.9 5.1A10 10 0 0 1 12 5c6 0 10 7 10 7a17 17 0 0 1-3.2 3.9M6.6 6.6C3.9 8.4 2 12 2 12s4 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />,
);
export const FishhookIcon = createIcon(<path d="M16 2v11a5 5 0 0 1-10 0v-2l3 3M16 2l-2 2" />);
export const GaugeIcon = createIcon(
  <>
    <path d="M12 14l4-4" />
    <path d="M3.3 19a10 10 0 1 1 17.4 0" />
  </>,
);
export const KeyIcon = createIcon(
  <>
    <circle cx="7.5" cy="15.5" r="4.5" />
    <path d="M10.7 12.3L21 2M16 7l3 3M18 5l2 2" />
  </>,
);
export const LaptopIcon = createIcon(
  <>
    <rect x="4" y="4" width="16" height="11" rx="1" />
    <path d="M2 19h20" />
  </>,
);
export const LockIcon = createIcon(
  <>
    <rect x="4" y="11" width="16" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </>,
);
export const MailIcon = createIcon(
  <>
    <rect x="2" y="4" width="20" height="16" rx="2" />
    <path d="M22 6l-10 7L2 6" />
  </>,
);
export const MapPinIcon = createIcon(
  <>
    <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12z" />
    <circle cx="12" cy="10" r="2.5" />
  </>,
);
export const MonitorIcon = createIcon(
  <>
    <rect x="2" y="3" width="20" height="14" rx="2" />
    <path d="M8 21h8M12 17v4" />
  </>,
);
export const PhoneIcon = createIcon(
  <>
    <rect x="6" y="2" width="12" height="20" rx="2" />
    <path d="M11 18h2" />
  </>,
);
export const PulseIcon = createIcon(<path d="M3 12h4l3-8 4 16 3-8h4" />);
export const SearchIcon = createIcon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M21 21l-4.3-4.3" />
  </>,
);
export const ServerIcon = createIcon(
  <>
    <rect x="3" y="3" width="18" height="8" rx="2" />
    <rect x="3" y="13" width="18" height="8" rx="2" />
    <path d="M7 7h.01M7 17h.01" />
  </>,
);
export const SlidersIcon = createIcon(<path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4" />);
export const TabletIcon = createIcon(
  <>
    <rect x="4" y="2" width="16" height="20" rx="2" />
    <path d="M11 18h2" />
  </>,
);
export const UsersIcon = createIcon(
  <>
    <circle cx="9" cy="8" r="4" />
    <path d="M1 21c0-4 3.6-6 8-6s8 2 8 6M17 4a4 4 0 0 1 0 8M23 21c0-3-1.8-5-5-5.8" />
  </>,
);
export const WifiIcon = createIcon(<path d="M2 8.5a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0M12 19h.01" />);
