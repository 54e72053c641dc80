import type { Plugins, Template } from '@pdfme/common';
import { builtInPlugins } from '@pdfme/schemas/builtins';

/** The schema types pdfme's built-in plugins render (today only `text`). */
const BUILT_IN_TYPES: ReadonlySet<string> = new Set(Object.values(builtInPlugins).map((plugin) => plugin.propPanel.defaultSchema.type));

let everyPlugin: Promise<Plugins> | undefined;
let everyPluginLoaded: Plugins | undefined;

/**
 * The plugins a template needs: the built-ins when every schema is of their types, else every
 * schema type a template may use, loaded on the first template that needs one. The full set
 * (`@pdfme/schemas`) brings every plugin with its designer icons, date locales and barcode
 * code, a large part of a render thread's memory, which a thread rendering text alone never pays.
 */
export function pluginsFor(template: Template): Plugins | Promise<Plugins> {
  const builtInOnly = template.schemas.every((page) => Array.isArray(page) && page.every((schema) => BUILT_IN_TYPES.has(schema.type)));
  if (builtInOnly) return builtInPlugins;
  everyPlugin ??= import('@pdfme/schemas').then((schemas) => (everyPluginLoaded = keyedAsTheDesignerDoes(schemas)));
  return everyPluginLoaded ?? everyPlugin;
}

/** The load of the plugins a template needs when they are not loaded yet, else undefined. */
export function pluginsLoading(template: Template): Promise<Plugins> | undefined {
  const plugins = pluginsFor(template);
  return plugins instanceof Promise ? plugins : undefined;
}

/** Keyed as pdfme's designer names the schema types. */
function keyedAsTheDesignerDoes(schemas: typeof import('@pdfme/schemas')): Plugins {
  return {
    Text: schemas.text,
    'Multi-Variable Text': schemas.multiVariableText,
    Image: schemas.image,
    SVG: schemas.svg,
    Line: schemas.line,
    Rectangle: schemas.rectangle,
    Ellipse: schemas.ellipse,
    Table: schemas.table,
    Date: schemas.date,
    Time: schemas.time,
    DateTime: schemas.dateTime,
    Select: schemas.select,
    Checkbox: schemas.checkbox,
    RadioGroup: schemas.radioGroup,
    ...schemas.barcodes,
  };
}
