import type { Plugins } from '@pdfme/common';
import {
  barcodes,
  checkbox,
  date,
  dateTime,
  ellipse,
  image,
  line,
  multiVariableText,
  radioGroup,
  rectangle,
  select,
  svg,
  table,
  text,
  time,
} from '@pdfme/schemas';

/**
 * The schema types a template may use, keyed as pdfme's designer names them. Everything they
 * need (including the Roboto font from @pdfme/common) ships with the packages.
 */
export const PDFME_PLUGINS: Plugins = {
  Text: text,
  'Multi-Variable Text': multiVariableText,
  Image: image,
  SVG: svg,
  Line: line,
  Rectangle: rectangle,
  Ellipse: ellipse,
  Table: table,
  Date: date,
  Time: time,
  DateTime: dateTime,
  Select: select,
  Checkbox: checkbox,
  RadioGroup: radioGroup,
  ...barcodes,
};
