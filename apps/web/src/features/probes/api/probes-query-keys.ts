/** Query keys of the probes feature: every probe list lives under `probesQueryKey`. */
export const probesQueryKey = ['probes'] as const;

export const probeListQueryKey = [...probesQueryKey, 'list'] as const;

export const storeProbesQueryKey = (storeId: string) =>
  [...probesQueryKey, 'store', storeId] as const;

export const probeTemperaturesQueryKey = (probeUID: string, start: string, end: string) =>
  [...probesQueryKey, 'temperatures', probeUID, start, end] as const;
