import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import type { ReferralInvitation } from '../../../../shared/referrals.js';
import { api } from '../../api';
import { useFormat } from '../../i18n/format';
import { useAuth } from '../auth/auth-context';

/** The message for what the invitation gives, as the referral programme says it (no promise where it gives nothing). */
function invitationMessage(invitation: ReferralInvitation, number: (value: number) => string): { id: string; values?: Record<string, number | string> } {
  const { benefit } = invitation;
  // The days are a plural's number (the catalogue writes it in the page's digits); the percentage is written here.
  if (benefit.kind === 'days') return { id: 'invitation.days', values: { days: benefit.days } };
  if (benefit.kind === 'discount') return { id: 'invitation.discount', values: { percent: number(benefit.percentOff) } };
  return { id: 'invitation.plain' };
}

/**
 * "Invited by a friend: +7 days on your first plan": told to a visitor who came through a friend's referral link (the
 * link's cookie) or, signed in, was referred and has not paid yet; with what the referral programme gives them, or
 * only "Invited by a friend" when it gives nothing. Read after the page has loaded (it is the visitor's own).
 */
export function InvitationNotice({ className = '' }: { className?: string }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const [invitation, setInvitation] = useState<ReferralInvitation | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.getReferralInvitation(controller.signal).then(setInvitation, () => setInvitation(null));
    return () => controller.abort();
  }, [userId]);

  if (!invitation?.invited) return null;
  const { id, values } = invitationMessage(invitation, format.number);
  return (
    <p role="status" className={`rounded-lg bg-emerald-50 px-4 py-3 text-sm font-semibold text-emerald-900 ring-1 ring-emerald-200 ${className}`}>
      {_(id, values)}
    </p>
  );
}
