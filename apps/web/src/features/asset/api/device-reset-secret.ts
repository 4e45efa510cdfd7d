// POST /api/iot/v2/devices/:id/reset-secret: a new secret, answered once; the old one stops working.
import { useMutation } from '@tanstack/react-query';
import { DEVICE_API, type DeviceWithSecret } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';

export function resetDeviceSecret(id: string): Promise<DeviceWithSecret> {
  return request<DeviceWithSecret>(`${DEVICE_API.devices}/${encodeURIComponent(id)}/reset-secret`, { method: 'POST', silent: true });
}

export function useResetDeviceSecret() {
  return useMutation({ mutationFn: resetDeviceSecret });
}
