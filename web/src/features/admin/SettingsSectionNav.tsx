import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { SETTINGS_SECTION_IDS, SETTINGS_SECTION_LABEL_IDS, settingsSectionPath, type SettingsSectionId } from './settings-sections';

/**
 * The Settings tab's sections, each a link to its own path: wrapped pills above the forms on a phone, a
 * column beside them (kept in view while the forms scroll) on a wide screen.
 */
export function SettingsSectionNav({ selected }: { selected: SettingsSectionId }) {
  const { _ } = useLingui();
  return (
    <nav aria-label={_('adminSettings.section.nav')} className="lg:w-56 lg:shrink-0">
      <ul className="flex flex-wrap gap-2 lg:sticky lg:top-24 lg:flex-col lg:gap-1">
        {SETTINGS_SECTION_IDS.map((section) => {
          const current = section === selected;
          return (
            <li key={section}>
              <Link
                to={settingsSectionPath(section)}
                aria-current={current ? 'page' : undefined}
                className={`block rounded-lg px-3 py-2 text-sm font-semibold ${
                  current
                    ? 'bg-indigo-50 text-indigo-700 ring-1 ring-indigo-200'
                    : 'text-slate-600 ring-1 ring-slate-200 hover:bg-white hover:text-slate-900 lg:ring-0'
                }`}
              >
                {_(SETTINGS_SECTION_LABEL_IDS[section])}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
