import { Image, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/**
 * The pairing key as an SVG QR code, as a data URL. The `qrcode` library is loaded on first
 * use (its own chunk: the back-office's initial JS does not carry it). SVG needs no canvas.
 */
export async function pairingKeyQrCodeUrl(pairingKey: string): Promise<string> {
  const { toString: toQrString } = await import('qrcode');
  const svg = await toQrString(pairingKey, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type PairingKeyQrCodeProps = { pairingKey: string; size?: number };

/** The store's pairing key as a QR code the tablet app scans (it encodes the key only). */
export function PairingKeyQrCode({ pairingKey, size = 160 }: PairingKeyQrCodeProps) {
  const { t } = useTranslation();
  const qrCode = useQuery({
    queryKey: ['pairing-key-qr-code', pairingKey],
    queryFn: () => pairingKeyQrCodeUrl(pairingKey),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!qrCode.data) return <Skeleton w={size} h={size} data-testid="pairing-key-qr-loading" />;
  return (
    <Image
      src={qrCode.data}
      w={size}
      h={size}
      alt={t('devices.pairingKeyQrAlt', { key: pairingKey })}
      data-testid="pairing-key-qr"
    />
  );
}
