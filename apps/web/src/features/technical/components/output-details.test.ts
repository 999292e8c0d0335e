import { describe, expect, it } from 'vitest';
import { outputDetails } from './output-details';

describe('outputDetails', () => {
  it('shows the request of an incoming request line', () => {
    const line = JSON.stringify({
      msg: 'incoming request',
      req: { method: 'GET', url: '/api/stores', remoteAddress: '127.0.0.1' },
    });
    expect(outputDetails(line)).toBe('GET /api/stores');
  });

  it('shows the status and time of a completed request', () => {
    const line = JSON.stringify({ res: { statusCode: 404 }, responseTime: 3.6 });
    expect(outputDetails(line)).toBe('404 4 ms');
  });

  it("shows an error's message", () => {
    expect(outputDetails(JSON.stringify({ err: { message: 'connection refused' } }))).toBe(
      'connection refused',
    );
  });

  it('says nothing of a line without details or not JSON', () => {
    expect(outputDetails(JSON.stringify({ msg: 'alert pass' }))).toBe('');
    expect(outputDetails('{cut')).toBe('');
  });
});
