// How a device reports, as the registry names it: the project's JSON report (MQTT or HTTP) or
// JT/T 808 over TCP.
import { DEVICE_PROTOCOLS, type DeviceProtocol } from '@iotc/shared/device';

export const PROTOCOL_KEYS = { json: 'asset.device.protocolJson', jt808: 'asset.device.protocolJt808' } as const satisfies Record<DeviceProtocol, string>;
/** The short names the device list shows (its column stays narrow; the form and filter give the full ones). */
export const PROTOCOL_SHORT_KEYS = { json: 'asset.device.protocolJsonShort', jt808: 'asset.device.protocolJt808' } as const satisfies Record<DeviceProtocol, string>;
/** The table's text map and the filter's options (labels are i18n keys). */
export const PROTOCOL_TEXT: Record<string, string> = PROTOCOL_SHORT_KEYS;
export const PROTOCOL_OPTIONS = DEVICE_PROTOCOLS.map((p) => ({ value: p, label: PROTOCOL_KEYS[p] }));
