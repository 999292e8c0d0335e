/** Longest side of a picture sent by the tablet, and in slow-internet mode. */
export const pictureMaxSide = 1600;
export const slowInternetPictureMaxSide = 800;

/**
 * A frame or an image drawn smaller (longest side at most `maxSide`) and encoded as JPEG:
 * what the tablet keeps and sends instead of the camera's full frame.
 */
export async function compressImage(
  source: CanvasImageSource & {
    width?: number;
    height?: number;
    videoWidth?: number;
    videoHeight?: number;
  },
  maxSide: number,
  quality = 0.8,
): Promise<Blob> {
  const width = source.videoWidth || (source.width as number) || 1;
  const height = source.videoHeight || (source.height as number) || 1;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas unavailable');
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))),
      'image/jpeg',
      quality,
    ),
  );
}
