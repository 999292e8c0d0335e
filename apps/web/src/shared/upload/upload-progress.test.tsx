import { screen } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { i18n } from '../i18n/i18n';
import { UploadProgress } from './upload-progress';
import { idleUploadState, type ResumableUpload, type UploadState } from './use-resumable-upload';

const megabyte = 1024 * 1024;
/** Intl separates numbers from units with (narrow) no-break spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

function fakeUpload(state: Partial<UploadState>): ResumableUpload {
  return {
    start: vi.fn(),
    pause: vi.fn(),
    resume: vi.fn(),
    cancel: vi.fn(),
    state: { ...idleUploadState, ...state },
  };
}

const uploading: Partial<UploadState> = {
  status: 'uploading',
  bytesSent: 42 * megabyte,
  bytesTotal: 100 * megabyte,
  speedBytesPerSecond: 3.2 * megabyte,
  secondsLeft: 19,
};

describe('UploadProgress', () => {
  it('shows the percentage, sizes, speed and time left, read out by the progress bar', async () => {
    const upload = fakeUpload(uploading);
    const { user } = renderWithProviders(<UploadProgress upload={upload} fileName="film.mp4" />);
    const bar = screen.getByRole('progressbar', { name: 'Uploading film.mp4' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    const figures = '42% · 42 MB of 100 MB · 3.2 MB/s · 19 sec left';
    expect(plain(bar.getAttribute('aria-valuetext'))).toBe(figures);
    expect(plain(screen.getByTestId('upload-progress-figures').textContent)).toBe(figures);
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(upload.pause).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(upload.cancel).toHaveBeenCalledTimes(1);
    const results = await axe.run(document.body, { resultTypes: ['violations'] });
    expect(
      results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    ).toEqual([]);
  });

  it('offers Resume when paused, in the interface language', async () => {
    await i18n.changeLanguage('fr');
    const upload = fakeUpload({
      ...uploading,
      status: 'paused',
      speedBytesPerSecond: 0,
      secondsLeft: null,
    });
    const { user } = renderWithProviders(<UploadProgress upload={upload} />);
    const bar = screen.getByRole('progressbar', { name: 'Envoi en cours' });
    expect(plain(bar.getAttribute('aria-valuetext'))).toBe('42 % · 42 Mo sur 100 Mo · En pause');
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reprendre' }));
    expect(upload.resume).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Annuler' })).toBeTruthy();
  });

  it('shows a lost connection with Resume and Cancel, a refusal without them', () => {
    const lost = fakeUpload({
      ...uploading,
      status: 'error',
      error: { code: 'network', message: 'Unable to reach the API' },
    });
    const { unmount } = renderWithProviders(<UploadProgress upload={lost} />);
    expect(screen.getByRole('alert').textContent).toBe('Unable to reach the API');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    unmount();

    const refused = fakeUpload({
      status: 'error',
      bytesTotal: 600 * megabyte,
      error: { code: 'documents.file-too-big', message: 'The file is too big: 500 MB at most.' },
    });
    renderWithProviders(<UploadProgress upload={refused} />);
    expect(screen.getByRole('alert').textContent).toBe('The file is too big: 500 MB at most.');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows nothing while idle', () => {
    renderWithProviders(<UploadProgress upload={fakeUpload({})} />);
    expect(screen.queryByTestId('upload-progress')).toBeNull();
  });
});
