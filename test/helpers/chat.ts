/** A tool the chat tests offer the model; the sandbox's model calls it when asked to. */
export const WEATHER = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
