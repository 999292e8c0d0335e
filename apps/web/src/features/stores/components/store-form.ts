import { defaultTimezoneName, europeanCountries } from '@mise/shared/organisation/constants';
import type { StoreDetail, UpdateStoreBody } from '@mise/shared/organisation/schemas';

/** What the store screen edits before Save (General tab, maximum devices, hub). */
export type StoreFormValues = {
  name: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  timezone_name: string;
  active: boolean;
  mise_licence: boolean;
  manager_owned: boolean;
  demonstration_store: boolean;
  week_start: number;
  licence_price: number | null;
  hidden_modules: StoreDetail['hidden_modules'];
  hidden_extensions: StoreDetail['hidden_extensions'];
  maximum_devices: number;
  sensor_sticker_id: string | null;
};

export type SetStoreValue = <Key extends keyof StoreFormValues>(
  key: Key,
  value: StoreFormValues[Key],
) => void;

export function storeFormValues(store: StoreDetail): StoreFormValues {
  return {
    name: store.name,
    address: store.address,
    postal_code: store.postal_code,
    city: store.city,
    country: store.country,
    timezone_name: store.timezone_name,
    active: store.active,
    mise_licence: store.mise_licence,
    manager_owned: store.manager_owned,
    demonstration_store: store.demonstration_store,
    week_start: store.week_start,
    licence_price: store.licence_price,
    hidden_modules: store.hidden_modules,
    hidden_extensions: store.hidden_extensions,
    maximum_devices: store.maximum_devices,
    sensor_sticker_id: store.sensor_sticker_id,
  };
}

export type StorePermissions = {
  /** Tablet mode: the General fields are locked. */
  isTabletMode: boolean;
  /** Licence, manager-owned, maximum devices and hub: admin or distributor. */
  canManageLicence: boolean;
  /** Demonstration store and licence price override. */
  isAdmin: boolean;
  /** Owners add/remove: admin, distributor, or a customer owning the store. */
  canManageOwners: boolean;
  /** Pairing-key regeneration: never offered to managers. */
  canRegeneratePairingKey: boolean;
};

/** The PATCH body: only what the viewer may change, with the version read. */
export function storeUpdateBody(
  store: StoreDetail,
  values: StoreFormValues,
  permissions: StorePermissions,
): UpdateStoreBody {
  const body: UpdateStoreBody = {
    version: store.version,
    hidden_modules: values.hidden_modules,
    hidden_extensions: values.hidden_extensions,
    week_start: values.week_start,
  };
  if (!permissions.isTabletMode) {
    body.name = values.name.trim();
    body.address = values.address.trim();
    body.postal_code = values.postal_code.trim();
    body.city = values.city.trim();
    body.active = values.active;
    // A store's country and zone change only when asked: the zone moves its task days.
    if (values.country !== store.country) body.country = values.country;
    if (values.timezone_name !== store.timezone_name) body.timezone_name = values.timezone_name;
  }
  if (permissions.canManageLicence) {
    body.manager_owned = values.manager_owned;
    body.maximum_devices = values.maximum_devices;
    if (values.sensor_sticker_id !== store.sensor_sticker_id && values.sensor_sticker_id) {
      body.sensor_sticker_id = values.sensor_sticker_id;
    }
  }
  if (permissions.isAdmin) {
    body.demonstration_store = values.demonstration_store;
    body.licence_price = values.licence_price;
  }
  return body;
}

/** Every standard zone name (spec 000 §9), Europe/Paris when the runtime cannot list them. */
export function timezoneNames(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [defaultTimezoneName];
  }
}

/** The zones a store may pick, with its current one even when the runtime does not list it. */
export function timezoneOptions(current: string): string[] {
  const names = timezoneNames();
  const missing = [current, defaultTimezoneName].filter((name) => !names.includes(name));
  return [...new Set(missing), ...names];
}

/** The zone a store of that country gets when its country is picked (spec 000 §9). */
export function zoneOfCountry(country: string): string | undefined {
  return europeanCountries.find((item) => item.code === country)?.zone;
}
