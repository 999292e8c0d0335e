/**
 * The licence-monitoring server: told whenever a store's licence is switched, so the
 * tablets' services stop or start. A falsy answer aborts the licence change (spec 000 §4).
 */
export type LicenceMonitoring = {
  updateLicence(input: { storeId: string; activated: boolean }): Promise<boolean>;
};

/** Works with no network: accepts every change (the default, and what tests use). */
export function createLocalLicenceMonitoring(): LicenceMonitoring {
  return { updateLicence: async () => true };
}

/**
 * The real server: POST {storeId, activated} to LICENCE_MONITORING_URL. Accepted only on a
 * 2xx whose body is truthy and not a refusal (false, "false", {status} other than "ok").
 */
export function createHttpLicenceMonitoring(baseUrl: string, fetchImpl = fetch): LicenceMonitoring {
  return {
    async updateLicence(input) {
      try {
        const response = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}/licence`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) return false;
        const text = (await response.text()).trim();
        if (text === '') return true;
        let answer: unknown;
        try {
          answer = JSON.parse(text);
        } catch {
          return false;
        }
        if (answer && typeof answer === 'object' && 'status' in answer) {
          return (answer as { status: unknown }).status === 'ok';
        }
        return Boolean(answer) && answer !== 'false';
      } catch {
        return false;
      }
    },
  };
}
