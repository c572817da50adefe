/**
 * Requests written the way people ask an assistant for something, each with the tool or tools
 * that serve it (any of them found counts). Written before the descriptions were tuned, and not
 * copied from them: several phrasings per tool, many naming no tool word at all. `heldOut`
 * requests are never looked at while tuning descriptions; they are reported on their own, so a
 * description that only learnt the tuned requests by heart shows up there.
 */
export interface RetrievalRequest {
  ask: string;
  tools: readonly string[];
  heldOut?: true;
}

const r = (ask: string, ...tools: string[]): RetrievalRequest => ({ ask, tools });
const held = (ask: string, ...tools: string[]): RetrievalRequest => ({ ask, tools, heldOut: true });

export const REQUESTS: readonly RetrievalRequest[] = [
  // models
  r('which models can I use for chat?', 'models_list'),
  r('list the image models available', 'models_list'),
  r("what's the model id for claude sonnet?", 'models_list'),
  r('what LLMs do you have', 'models_list'),
  r('which embedding models are there', 'models_list'),
  r('show me the cheapest video models with their prices', 'models_list', 'models_get'),
  held('is there a voice model I can pick from?', 'models_list'),
  r('tell me more about gpt-4o: context window and price', 'models_get', 'models_list'),
  r('what parameters does the flux image model accept?', 'models_get'),
  r('how much does deepseek-r1 cost per million tokens', 'models_get', 'models_list'),
  r('which providers serve llama 3.3 70b', 'models_get'),
  r('give me the details of one model', 'models_get'),
  held('what is the context length of mistral large', 'models_get', 'models_list'),

  // text
  r('ask gpt-4o to summarize this paragraph', 'chat'),
  r('get a second opinion from another LLM on my code', 'chat'),
  r('have claude write a haiku about autumn', 'chat'),
  r('translate this email into German using mistral', 'chat'),
  r('send this prompt to o3 with high reasoning effort', 'chat'),
  r('continue the conversation we had with that model', 'chat'),
  held('what would gemini answer to this question?', 'chat'),
  r('how many tokens is this prompt?', 'tokens_count'),
  r('will this document fit in the context window of llama?', 'tokens_count'),
  r('count the tokens in my conversation before I send it', 'tokens_count'),
  r('how long is this text for the model, before I pay for it', 'tokens_count'),
  held('estimate the input size of this text for gpt-4o', 'tokens_count'),

  // search
  r('search the web for the latest news about the EU AI act', 'web_search'),
  r('google the opening hours of the louvre', 'web_search'),
  r('look up online who won the champions league final', 'web_search'),
  r('find recent articles about solar panel prices, with sources', 'web_search'),
  r("what's in the news today", 'web_search'),
  r('check the internet for the current price of bitcoin', 'web_search'),
  held('search the internet for reviews of the framework laptop', 'web_search'),

  // data
  r('what data sources can I query?', 'data_endpoints'),
  r('which scrapers are available and what do they cost', 'data_endpoints'),
  r('is there an endpoint for instagram profiles?', 'data_endpoints', 'data_call'),
  r('what fields does the maps search take?', 'data_endpoints', 'data_call'),
  held('list the data api categories', 'data_endpoints'),
  r('scrape this page: https://example.com/pricing', 'data_call'),
  r('find restaurants on a map near Alexanderplatz', 'data_call'),
  r('guess the email pattern for people at acme.com', 'data_call'),
  r('how many followers does @nasa have', 'data_call'),
  r('get the contact details of the CEO of Stripe', 'data_call'),
  r('pull the reviews of this cafe from the map', 'data_call'),
  r('is this email address deliverable?', 'data_call'),
  held('extract the text of this website for me', 'data_call'),

  // images
  r('draw a cat wearing a space helmet', 'image_generate'),
  r('make me a logo for my bakery', 'image_generate'),
  r('create a photo-realistic picture of a lighthouse at sunset', 'image_generate'),
  r('generate an illustration for my blog post', 'image_generate'),
  r('I need a poster, 16:9, of a mountain at dawn', 'image_generate'),
  r('paint a watercolor of my street', 'image_generate'),
  held('design an icon for my app', 'image_generate'),
  r('remove the background from this photo', 'image_edit'),
  r('change the sky in my picture to a sunset', 'image_edit'),
  r("put my product on a white background, here's the image", 'image_edit'),
  r('combine these two photos into one', 'image_edit'),
  r('retouch this portrait and fix the lighting', 'image_edit'),
  held('replace the car in this picture with a bicycle', 'image_edit'),

  // video
  r('make a short video of waves crashing on a beach', 'video_generate'),
  r('animate this image into a 5 second clip', 'video_generate'),
  r('turn this photo into a video', 'video_generate'),
  r('create a 10s clip of a dog running, 1080p', 'video_generate'),
  r('film a drone shot over a forest', 'video_generate'),
  held('produce a short movie scene from this script', 'video_generate'),
  r('is my video done yet?', 'video_status'),
  r('check on the video render I started', 'video_status'),
  r('the clip timed out, can you fetch it now?', 'video_status', 'video_recent'),
  r('download the finished video of run abc123', 'video_status'),
  held('how far along is the video generation', 'video_status'),
  r('make my video longer', 'video_extend'),
  r('continue the clip for another 5 seconds', 'video_extend'),
  r('extend that animation', 'video_extend'),
  held('add more footage to the end of that video', 'video_extend'),
  r('show my recent video generations', 'video_recent'),
  r('I lost the id of the video I made earlier', 'video_recent'),
  r('which videos did I render today?', 'video_recent'),
  held('list the last videos I generated', 'video_recent'),

  // audio
  r('read this paragraph aloud', 'speech_generate'),
  r('turn this text into an mp3', 'speech_generate'),
  r('record a narration for my slideshow', 'speech_generate'),
  r('make a voiceover in a British male voice', 'speech_generate'),
  r('text to speech for this announcement', 'speech_generate'),
  r('say "welcome aboard" in a friendly voice', 'speech_generate'),
  held('I want an audio version of my article', 'speech_generate'),
  r('compose a jingle for my podcast', 'music_generate'),
  r('make a lo-fi track to study to', 'music_generate'),
  r('create background music for a video', 'music_generate'),
  r('write a song about summer', 'music_generate'),
  r('I need a short melody for my game menu', 'music_generate'),
  held('generate a 30 second upbeat soundtrack', 'music_generate'),
  r('transcribe this meeting recording', 'transcribe'),
  r('make subtitles for my interview', 'transcribe'),
  r('what is said in this voice memo?', 'transcribe'),
  r('convert this podcast mp3 to text with who is speaking', 'transcribe'),
  r('type up the lecture audio', 'transcribe'),
  held('write down what is said in this audio file', 'transcribe'),
  r('get the transcript of this youtube video', 'transcribe_video_links'),
  r('what do they say in these tiktok links?', 'transcribe_video_links'),
  r('summarize this video from its url', 'transcribe_video_links'),
  held('pull the captions from these video urls', 'transcribe_video_links'),

  // jobs
  r('is it done yet?', 'job_status', 'video_status'),
  r('check the status of run 1234', 'job_status', 'video_status'),
  r('my transcription timed out, wait for it to finish', 'job_status'),
  r('did the speech job finish?', 'job_status'),
  r('keep waiting for that result', 'job_status', 'video_status'),
  held('poll the background response until it is ready', 'job_status'),

  // embeddings
  r('get embeddings for these sentences', 'embed'),
  r('which of these documents is most similar to my question?', 'embed'),
  r("rank these paragraphs by relevance to 'refund policy'", 'embed'),
  r('vectorize my FAQ for semantic search', 'embed'),
  r('cluster these customer comments by meaning', 'embed'),
  held('find the closest match to this text among these', 'embed'),

  // payments
  r('what can I pay for without an account?', 'x402_endpoints'),
  r('which routes accept crypto payment per call', 'x402_endpoints'),
  r('can I use this without signing up, paying per request?', 'x402_endpoints', 'x402_complete'),
  held('list the pay-per-use endpoints', 'x402_endpoints'),
  r('I paid the quote, now give me the result', 'x402_complete'),
  r("here's the payment preimage, finish the request", 'x402_complete'),
  r('I sent the USDC, complete the call', 'x402_complete'),
  r('settle the lightning invoice and get my answer', 'x402_complete'),
  held('the invoice is paid, where is my result?', 'x402_complete'),

  // evals
  r('show me my eval projects', 'evals_read'),
  r('what were the results of experiment abc?', 'evals_read'),
  r('list the datasets I have for evaluation', 'evals_read'),
  r('show the worst-scoring answers from my last experiment', 'evals_read', 'eval_run'),
  held('which scorers have I set up?', 'evals_read'),
  r('create a test dataset from this csv', 'evals_write'),
  r('add a scorer that checks the answer is valid json', 'evals_write'),
  r('delete the old eval project', 'evals_write'),
  r('freeze this dataset version', 'evals_write'),
  held('make a new llm-as-judge grader', 'evals_write'),
  r('compare gpt-4o and claude on these 20 questions', 'eval_run'),
  r('benchmark three models on my test set', 'eval_run'),
  r('which model answers my customer questions best? test them', 'eval_run'),
  r('run an evaluation of my prompt', 'eval_run'),
  r('grade the answers of two models against expected outputs', 'eval_run'),
  held('score these models against the expected answers', 'eval_run'),

  // account
  r('am I logged in?', 'auth_status'),
  r('which api key is being used?', 'auth_status'),
  r('check my credentials', 'auth_status'),
  r('where does the key come from, env or sign-in?', 'auth_status'),
  held('who am I signed in as', 'auth_status'),
  r('connect my account', 'auth_login'),
  r('sign in to orbit', 'auth_login'),
  r('log in with my browser', 'auth_login'),
  held('authenticate me please', 'auth_login'),
  r('log out', 'auth_logout'),
  r('forget my stored key', 'auth_logout'),
  held('disconnect my account from this machine', 'auth_logout'),
  r('how much have I spent?', 'usage_get'),
  r('how much of my subscription is left this month?', 'usage_get'),
  r('check my usage and remaining credits', 'usage_get'),
  r("what's my balance", 'usage_get'),
  r('when does my quota reset?', 'usage_get'),
  held('am I close to my limit?', 'usage_get'),
  r('show my batch jobs', 'batches_list'),
  r('list the batches that failed', 'batches_list'),
  held('which of my bulk requests are still running', 'batches_list'),
  r('get the results of batch batch_123', 'batches_get'),
  r("what's the status of my batch?", 'batches_get', 'batches_list'),
  held('download the output of that batch', 'batches_get'),
  r("what's my referral link?", 'settings_read'),
  r('how long are my responses kept?', 'settings_read'),
  held('show my account settings', 'settings_read'),
  r('bill everything to my team by default', 'settings_write'),
  r('stop storing my responses', 'settings_write'),
  r('set response retention to 30 days', 'settings_write'),
  held('change my default team', 'settings_write'),

  // keys
  r('list my api keys', 'api_keys_read'),
  r('which keys expire soon?', 'api_keys_read'),
  r('how much has my CI key spent today?', 'api_keys_read'),
  held('show the limits on my keys', 'api_keys_read'),
  r('create a new api key for my app with a $5 daily limit', 'api_keys_write'),
  r('revoke the leaked key', 'api_keys_write'),
  r('make a key that expires next week', 'api_keys_write'),
  held('disable the staging key', 'api_keys_write'),

  // teams
  r('who is on my team?', 'teams_read'),
  r('show pending invitations', 'teams_read'),
  r('list my teams', 'teams_read'),
  held("what's my role in the marketing team", 'teams_read'),
  r('invite bob@example.com to my team', 'teams_write'),
  r('remove alice from the team', 'teams_write'),
  r('create a team for the design folks', 'teams_write'),
  r('set a $100 spending limit for a member', 'teams_write'),
  held('make carol an admin', 'teams_write'),

  // verify
  r('prove the model runs in a secure enclave', 'tee_attestation'),
  r('check the attestation of the confidential model', 'tee_attestation'),
  r('is this private model really on trusted hardware?', 'tee_attestation'),
  held('show me the enclave measurements', 'tee_attestation'),
  r('verify the signature of that response', 'tee_verify'),
  r('was this answer really produced inside the enclave?', 'tee_verify'),
  held("check the reply wasn't tampered with", 'tee_verify'),
];
