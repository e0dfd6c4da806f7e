import { describe, expect, it } from 'vitest';
import { SETTINGS_SECTION_IDS, settingsSectionAt, settingsSectionPath } from './settings-sections';

describe('the Settings tab’s sections as paths', () => {
  it('opens the section a path names, with or without the language prefix', () => {
    for (const section of SETTINGS_SECTION_IDS) expect(settingsSectionAt(settingsSectionPath(section))).toBe(section);
    expect(settingsSectionAt('/ru/admin/settings/payments')).toBe('payments');
    expect(settingsSectionAt('/admin/settings/security/')).toBe('security');
  });

  it('opens the first section at /admin/settings and at a section it does not know', () => {
    expect(settingsSectionAt('/admin/settings')).toBe('general');
    expect(settingsSectionAt('/fa/admin/settings/')).toBe('general');
    expect(settingsSectionAt('/admin/settings/no-such-section')).toBe('general');
  });
});
