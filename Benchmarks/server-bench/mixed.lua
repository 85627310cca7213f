-- Load that looks like learners (mixed.sh): 90 % catalog pages and searches, 8 % a learner's
-- own reads, 2 % writes, each by a learner picked at random from the file learners.py made.
-- Usage: wrk -s mixed.lua URL -- LEARNERS-FILE
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

local words = { "swift", "data", "garcia", "kubernetes", "design", "python", "yoga", "photo" }
local facets = { "level:advanced%20is:free", "cat:data", "is:open%20level:beginner", "swift%20is:free" }
local sorts = { "price", "-newest", "duration", "-price" }

function init(args)
  math.randomseed(os.time() * 100 + index)
  learners = {}
  for line in io.lines(args[1]) do
    local fields = {}
    for field in line:gmatch("%S+") do table.insert(fields, field) end
    table.insert(learners, { token = fields[1], courses = { fields[2], fields[3], fields[4] } })
  end
  pages, reads, writes = 0, 0, 0
  ok, refused, failed = 0, 0, 0
end

local function as(learner)
  return { ["Authorization"] = "Bearer " .. learner.token }
end

local function randomCourse()
  return string.format("gen-%07d", math.random(1, 1000000))
end

function request()
  local roll = math.random(1000)
  local learner = learners[math.random(#learners)]
  if roll <= 900 then
    pages = pages + 1
    if roll <= 300 then
      return wrk.format("GET", "/v1/courses?limit=20")
    elseif roll <= 450 then
      -- Keys are catalog ranks times 65536: a page anywhere in the catalog.
      return wrk.format("GET", "/v1/courses?limit=20&after=" .. (math.random(1, 999000) * 65536))
    elseif roll <= 700 then
      return wrk.format("GET", "/v1/courses?limit=20&query=" .. words[math.random(#words)])
    elseif roll <= 800 then
      return wrk.format("GET", "/v1/courses?limit=20&query=" .. facets[math.random(#facets)])
    else
      return wrk.format("GET", "/v1/courses?limit=20&sort=" .. sorts[math.random(#sorts)])
    end
  elseif roll <= 980 then
    reads = reads + 1
    if roll <= 930 then
      -- The marks of a page: the learner's own courses among others.
      local ids = table.concat({ learner.courses[1], randomCourse(), learner.courses[2], randomCourse(), randomCourse() }, ",")
      return wrk.format("GET", "/v1/me/enrollments?course_ids=" .. ids, as(learner))
    elseif roll <= 950 then
      return wrk.format("GET", "/v1/me", as(learner))
    elseif roll <= 965 then
      return wrk.format("GET", "/v1/me/enrollments", as(learner))
    else
      return wrk.format("GET", "/v1/me/favourites", as(learner))
    end
  else
    writes = writes + 1
    local method = (math.random(2) == 1) and "PUT" or "DELETE"
    if roll <= 990 then
      return wrk.format(method, "/v1/me/favourites/" .. randomCourse(), as(learner))
    elseif roll <= 995 then
      return wrk.format(method, "/v1/me/enrollments/" .. learner.courses[1] .. "/lessons/" .. math.random(1, 3), as(learner))
    else
      -- Leaving and joining again: another thread may have done it first (404, 409).
      return wrk.format(method, "/v1/me/enrollments/" .. learner.courses[3], as(learner))
    end
  end
end

function response(status, headers, body)
  if status < 300 then
    ok = ok + 1
  elseif status < 500 then
    refused = refused + 1
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local totals = { pages = 0, reads = 0, writes = 0, ok = 0, refused = 0, failed = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
  end
  io.write(string.format("mix: pages %d reads %d writes %d; answers 2xx %d 4xx %d 5xx %d\n",
    totals.pages, totals.reads, totals.writes, totals.ok, totals.refused, totals.failed))
end
