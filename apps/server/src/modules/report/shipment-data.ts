// What the shipment report's files are made from: the report (the JSON answer) with the readings,
// the planned path and the two areas that the PDF draws and the Excel file lists. Its own file so
// that the service (shipment.ts) and the PDF (shipment-pdf.ts) both use it without importing each other.
import type { ShipmentReport } from '@iotc/shared/report';

export interface ShipmentReading {
  t: number;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  speed: number | null;
  temp: number | null;
  humidity: number | null;
  door: string | null;
  battery: number | null;
}

/** The report with what the PDF and the Excel file draw besides it. */
export interface ShipmentData {
  report: ShipmentReport;
  readings: ShipmentReading[];
  /** The planned path (origin, the route's points, destination); [] without a route. */
  route: [number, number][];
  origin: { lat: number; lon: number; radiusM: number };
  destination: { lat: number; lon: number; radiusM: number };
}
