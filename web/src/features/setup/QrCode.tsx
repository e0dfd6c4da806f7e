import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';

/** Spec section 9: 192 px, error correction H, with a quiet-zone margin. */
const QR_SIZE_PX = 192;
const QR_OPTIONS = { type: 'svg', errorCorrectionLevel: 'H', margin: 4, width: QR_SIZE_PX } as const;

type QrState = { url: string; src: string } | { url: string; failed: true } | null;

/**
 * A QR code of `value` as an <img> of inline SVG (the CSP allows data: images). The qrcode
 * library loads only when a code is first shown.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { _ } = useLingui();
  const [state, setState] = useState<QrState>(null);

  useEffect(() => {
    let cancelled = false;
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(value, QR_OPTIONS))
      .then((svg) => {
        if (!cancelled) setState({ url: value, src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}` });
      })
      .catch(() => {
        if (!cancelled) setState({ url: value, failed: true });
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  const current = state?.url === value ? state : null;
  const box = 'flex size-48 shrink-0 items-center justify-center rounded-lg bg-white ring-1 ring-slate-200';

  if (current && 'src' in current) {
    return <img src={current.src} alt={label} width={QR_SIZE_PX} height={QR_SIZE_PX} className={`${box} object-contain`} />;
  }
  return (
    <div role="status" className={`${box} p-4 text-center text-sm text-slate-500`}>
      {_(current ? 'account.qrCode.failed' : 'account.qrCode.drawing')}
    </div>
  );
}
