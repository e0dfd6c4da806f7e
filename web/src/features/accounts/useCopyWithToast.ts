import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import { useToast } from '../toast/toast-context';
import { copyText } from './clipboard';
import { ACCOUNT_UI_MESSAGES } from './messages';

/** Copies text and says so in a toast (or says that it could not); resolves whether it worked. */
export function useCopyWithToast(): (text: string, successMessage: string) => Promise<boolean> {
  const { _ } = useLingui();
  const toast = useToast();
  return useCallback(
    async (text, successMessage) => {
      const copied = await copyText(text);
      if (copied) toast.success(successMessage);
      else toast.error(_(ACCOUNT_UI_MESSAGES.copyFailed));
      return copied;
    },
    [toast, _],
  );
}
