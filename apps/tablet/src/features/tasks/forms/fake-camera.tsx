/**
 * The in-app camera as tests use it (no camera in happy-dom): one button hands a small JPEG
 * to onCapture, as the real shutter and "Use this picture" do.
 */
export function FakeCameraCapture({ onCapture }: { onCapture: (picture: Blob) => void }) {
  return (
    <button
      type="button"
      onClick={() => onCapture(new Blob(['jpeg bytes'], { type: 'image/jpeg' }))}
    >
      Fake shutter
    </button>
  );
}
