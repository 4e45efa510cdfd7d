// Remote-control commands to JT/T 808 terminals, across nodes. A terminal's TCP connection lives
// on one node; the command may be approved on another. The command service hands an approved
// command for a jt808 device to `sender`, which asks every node through the live event bus
// (in-process, or Redis between nodes) to deliver it; the gateway of the node holding the
// terminal's latest session (the database's jt808_terminals row names its node and time, so a
// stale connection another node still holds open is passed over) picks a platform serial,
// records it in the command's story (`delivered`: node, message id, serial) and only then writes
// the frame; the other nodes ignore the request.
// When no node holds a session the command stays sent, undelivered: the node where the terminal
// next authenticates (any node, within COMMAND_TIMEOUT_SECONDS of the approval) delivers it then,
// as an MQTT broker hands a QoS 1 command to a device when it comes back; past the time-out it has
// failed and is never written. The terminal's answer (0x0001, or 0x0201 to a position query) is
// matched through the story, so any node that receives it closes the command.
import { commandMessageSchema, type CommandMessage } from '@iotc/shared/command';
import type { EventBus } from '../../realtime/bus.ts';
import type { ReportingDevice } from '../../ingest/pipeline.ts';
import type { CommandSender, CommandService } from '../command/service.ts';
import { CONTROL_COMMAND, encodeSetParameters, encodeTerminalControl, encodeTextMessage, TEXT_FLAG } from './commands.ts';
import { Jt808Error } from './errors.ts';
import { ANSWER_RESULT, MSG } from './messages.ts';

/** A request to every node: deliver this command to terminal `deviceId` if you hold its connection. */
export interface Jt808Delivery {
  deviceId: string;
  message: CommandMessage;
}

/** What the gateway needs of the command flow. */
export interface Jt808Downlink {
  /** Delivery requests from every node; answers the unsubscribe. */
  subscribe(listener: (delivery: Jt808Delivery) => void): () => void;
  /** The device's commands approved while no node held its connection and not timed out, oldest first (delivered when it authenticates). */
  undelivered(device: ReportingDevice): Promise<CommandMessage[]>;
  /** Before writing: records the serial; false when the command is no longer to be written (closed, or delivered by another node). */
  delivering(commandId: string, wire: { serial: number; messageId: number }): Promise<boolean>;
  /** The terminal answered a platform message (0x0001; 0x0201 as result 0 of a 0x8201). */
  answered(device: ReportingDevice, answer: { serial: number; messageId: number; result: number; message?: string }): Promise<void>;
  /** The command has no frame (a kind a terminal does not take): failed `send`. */
  unsendable(commandId: string, reason: string): Promise<void>;
}

const CONTROL: Record<string, number> = {
  power_off: CONTROL_COMMAND.powerOff,
  reset: CONTROL_COMMAND.reset,
  factory_reset: CONTROL_COMMAND.factoryReset,
  close_data_link: CONTROL_COMMAND.closeDataLink,
  close_wireless: CONTROL_COMMAND.closeWireless,
};

/** The platform message that carries a command; throws Jt808Error('cannot-encode') for a kind a terminal does not take. */
export function commandFrame(message: CommandMessage, v2019: boolean): { messageId: number; body: Buffer } {
  const p = message.params;
  switch (message.kind) {
    case 'position_query':
      return { messageId: MSG.positionQuery, body: Buffer.alloc(0) };
    case 'text_message': {
      const flags = TEXT_FLAG.display | (p.tts === true ? TEXT_FLAG.tts : 0) | (p.emergency === true ? TEXT_FLAG.emergency : 0);
      return { messageId: MSG.textMessage, body: encodeTextMessage({ flags, text: String(p.text ?? '') }, v2019) };
    }
    case 'terminal_control': {
      const command = CONTROL[String(p.action)];
      if (command === undefined) throw new Jt808Error('cannot-encode', `terminal control action ${String(p.action)}`);
      return { messageId: MSG.terminalControl, body: encodeTerminalControl({ command, params: '' }) };
    }
    case 'reboot':
      return { messageId: MSG.terminalControl, body: encodeTerminalControl({ command: CONTROL_COMMAND.reset, params: '' }) };
    case 'report_interval':
      return { messageId: MSG.setParameters, body: encodeSetParameters({ reportIntervalSeconds: Number(p.seconds) }) };
    default:
      throw new Jt808Error('cannot-encode', `command ${message.kind} has no JT/T 808 message`);
  }
}

const RESULT_TEXT: Record<number, string> = {
  [ANSWER_RESULT.failure]: 'failure',
  [ANSWER_RESULT.wrongMessage]: 'message wrong',
  [ANSWER_RESULT.notSupported]: 'not supported',
};

/** The command service's sender for jt808 devices and the gateway's side of the flow, over one bus. */
export function jt808Downlink(bus: EventBus, commands: CommandService, opts: { nodeId: string; log: { warn(obj: object, msg: string): void } }): { sender: CommandSender; downlink: Jt808Downlink } {
  const sender: CommandSender = {
    sendCommand: async (deviceId, text) => {
      const message = commandMessageSchema.parse(JSON.parse(text));
      bus.publish({ type: 'jt808-command', deviceId, message });
    },
  };
  const downlink: Jt808Downlink = {
    subscribe: (listener) =>
      bus.subscribe((event) => {
        if (event.type === 'jt808-command') listener({ deviceId: event.deviceId, message: event.message });
      }),
    undelivered: (device) => commands.undelivered(device.id),
    delivering: (commandId, wire) => commands.delivering(commandId, { node: opts.nodeId, ...wire }),
    async answered(device, a) {
      const ok = a.result === ANSWER_RESULT.ok;
      const message = ok ? (a.message ?? null) : `JT/T 808 result ${a.result}${RESULT_TEXT[a.result] ? ` (${RESULT_TEXT[a.result]})` : ''}`;
      const matched = await commands.wireAnswer(device.id, { serial: a.serial, messageId: a.messageId, ok, message });
      if (!matched && a.messageId !== MSG.platformAnswer) {
        opts.log.warn({ deviceId: device.deviceId, serial: a.serial, messageId: a.messageId }, 'JT/T 808: an answer to no sent command; ignored');
      }
    },
    unsendable: (commandId, reason) => commands.unsendable(commandId, reason),
  };
  return { sender, downlink };
}
