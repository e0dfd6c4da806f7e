import { useLingui } from '@lingui/react';
import { useRef, type KeyboardEvent } from 'react';
import { useLocale } from '../../i18n/locale-context';
import { PLATFORM_GUIDES, SETUP_PLATFORMS, type SetupPlatform } from './platform-guides';

interface PlatformTabsProps {
  selected: SetupPlatform;
  onSelect: (platform: SetupPlatform) => void;
  idPrefix: string;
}

const next = (index: number, count: number) => (index + 1) % count;
const previous = (index: number, count: number) => (index - 1 + count) % count;

/** The tabs run in reading order: in right-to-left text the next tab is to the left. */
const KEY_STEPS: Record<'ltr' | 'rtl', Record<string, (index: number, count: number) => number>> = {
  ltr: { ArrowRight: next, ArrowLeft: previous, Home: () => 0, End: (_index, count) => count - 1 },
  rtl: { ArrowLeft: next, ArrowRight: previous, Home: () => 0, End: (_index, count) => count - 1 },
};

/** A tablist of platforms with roving focus (arrow keys, Home, End). */
export function PlatformTabs({ selected, onSelect, idPrefix }: PlatformTabsProps) {
  const { _ } = useLingui();
  const { dir } = useLocale();
  const tabRefs = useRef(new Map<SetupPlatform, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = KEY_STEPS[dir][event.key];
    if (!step) return;
    const target = SETUP_PLATFORMS[step(SETUP_PLATFORMS.indexOf(selected), SETUP_PLATFORMS.length)];
    if (!target) return;
    event.preventDefault();
    onSelect(target);
    tabRefs.current.get(target)?.focus();
  }

  return (
    <div role="tablist" aria-label={_('account.setup.tabsLabel')} onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {SETUP_PLATFORMS.map((platform) => {
        const isSelected = platform === selected;
        return (
          <button
            key={platform}
            ref={(element) => {
              if (element) tabRefs.current.set(platform, element);
              else tabRefs.current.delete(platform);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${platform}`}
            aria-selected={isSelected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(platform)}
            className={`shrink-0 border-b-2 px-2 py-2 text-sm font-semibold sm:px-3 ${
              isSelected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
            }`}
          >
            {PLATFORM_GUIDES[platform].label}
          </button>
        );
      })}
    </div>
  );
}
