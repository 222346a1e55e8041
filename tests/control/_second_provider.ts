/** A second provider on the same simulator, for `/model` switches. */
export function secondProvider(url: string): string {
  return [
    `[[providers]]`,
    `name = "sim-pro"`,
    `kind = "openai"`,
    `base_url = "${url}"`,
    `model = "sim-pro-model"`,
    `api_key_env = "DEEPSEEK_API_KEY"`,
    `reasoning_protocol = "deepseek"`,
  ].join("\n");
}
