import {
  createHttpLicenceMonitoring,
  createLocalLicenceMonitoring,
  type LicenceMonitoring,
} from './licence-monitoring';
import {
  createKooveaSensorProvider,
  createLocalSensorProvider,
  type SensorProvider,
  type SensorProviderLog,
} from './sensor-provider';
import {
  createDisabledStockImages,
  createPexelsStockImages,
  type StockImages,
} from './stock-images';
import { createHttpVideoHost, createLocalVideoHost, type VideoHost } from './video-host';

/** Outside services, each with a local implementation that needs no network. */
export type Integrations = {
  licenceMonitoring: LicenceMonitoring;
  sensorProvider: SensorProvider;
  stockImages: StockImages;
  videoHost: VideoHost;
};

export function createIntegrations(
  config: {
    LICENCE_MONITORING_URL?: string;
    SENSOR_PROVIDER_URL?: string;
    STOCK_IMAGES_API_KEY?: string;
    STOCK_IMAGES_URL?: string;
    VIDEO_HOST_URL?: string;
    VIDEO_HOST_API_KEY?: string;
  },
  /** Where an outside service's failure is logged (the app's logger, as a warning). */
  log?: SensorProviderLog,
): Integrations {
  return {
    licenceMonitoring: config.LICENCE_MONITORING_URL
      ? createHttpLicenceMonitoring(config.LICENCE_MONITORING_URL)
      : createLocalLicenceMonitoring(),
    sensorProvider: config.SENSOR_PROVIDER_URL
      ? createKooveaSensorProvider(config.SENSOR_PROVIDER_URL, fetch, log)
      : createLocalSensorProvider(),
    stockImages: config.STOCK_IMAGES_API_KEY
      ? createPexelsStockImages({
          apiKey: config.STOCK_IMAGES_API_KEY,
          baseUrl: config.STOCK_IMAGES_URL,
        })
      : createDisabledStockImages(),
    videoHost:
      config.VIDEO_HOST_URL && config.VIDEO_HOST_API_KEY
        ? createHttpVideoHost({
            baseUrl: config.VIDEO_HOST_URL,
            apiKey: config.VIDEO_HOST_API_KEY,
            log,
          })
        : createLocalVideoHost(),
  };
}
