// POST /api/iot/v2/devices (a new device; the answer carries its secret, shown once) and
// PUT /api/iot/v2/devices/:id (name, model, protocol, SIM, firmware).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_API, type DeviceCreateBody, type DeviceRow, type DeviceUpdateBody, type DeviceWithSecret } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';
import { DEVICE_DETAIL_KEY } from './device-detail.ts';
import { DEVICES_LIST_KEY } from './devices.ts';

export function createDevice(body: DeviceCreateBody): Promise<DeviceWithSecret> {
  return request<DeviceWithSecret>(DEVICE_API.devices, { method: 'POST', body, silent: true });
}

export function updateDevice({ id, ...body }: DeviceUpdateBody & { id: string }): Promise<DeviceRow> {
  return request<DeviceRow>(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true });
}

export function useCreateDevice() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createDevice, onSuccess: () => client.invalidateQueries({ queryKey: DEVICES_LIST_KEY }) });
}

export function useUpdateDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateDevice,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: DEVICES_LIST_KEY }), client.invalidateQueries({ queryKey: DEVICE_DETAIL_KEY })]),
  });
}
