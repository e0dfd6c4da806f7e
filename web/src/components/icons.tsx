import type { ReactNode, SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

/** Decorative line icons (hidden from assistive technology; pair them with text). */
export function createIcon(paths: ReactNode) {
  return function Icon(props: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths}
      </svg>
    );
  };
}

export const ChevronDownIcon = createIcon(<path d="M6 9l6 6 6-6" />);
export const MenuIcon = createIcon(<path d="M4 6h16M4 12h16M4 18h16" />);
export const CloseIcon = createIcon(<path d="M6 6l12 12M18 6L6 18" />);
export const ShieldIcon = createIcon(<path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z" />);
export const CodeIcon = createIcon(<path d="M16 18l6-6-6-6M8 6l-6 6 6 6" />);
export const GlobeIcon = createIcon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M2 12h20M12 2a15 15 0 0 1 0 20 15 15 0 0 1 0-20z" />
  </>,
);
export const DevicesIcon = createIcon(
  <>
    <rect x="2" y="4" width="14" height="10" rx="1" />
    <path d="M5 18h8" />
    <rect x="17" y="8" width="5" height="12" rx="1" />
  </>,
);
export const RefundIcon = createIcon(<path d="M12 1v22M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" />);
export const BoltIcon = createIcon(<path d="M13 2L3 14h9l-1 8 10-12h-9l1-8z" />);
export const UserIcon = createIcon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
  </>,
);
