"""A job, a car and a condition said as news, the way chat says them: a job got or an offer
taken by the employer's name ("I got the Monzo job!!"), a stretch there so far ("two months
at Stripe now"), a role taken where one goes ("我要去华为了 做测试工程师"), a car bought and
then named ("bought a car last week, Kia Picanto"), a ligament torn or a condition back
("tore my ACL", "my migraines are back", "查出来是多囊"); and what only looks like one: a role
shouted in capitals, a city gone to for work."""

from __future__ import annotations

import pytest
from episode_builders import held_statements

from dualtrace.text.slots import find_statements


def _read(text: str) -> set[tuple[str, str | None]]:
    return held_statements(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I got the Ocado job!!! starting in June", {("works_at", "Ocado")}),
        ("landed the Old Mutual role, can't believe it", {("works_at", "Old Mutual")}),
        ("took the KPMG offer in the end, more money", {("works_at", "KPMG")}),
        ("three months at Revolut now and still confused by jira", {("works_at", "Revolut")}),
        ("下周去字节了 做数据分析师", {("works_at", "字节"), ("occupation", "数据分析师")}),
        ("我决定去那家新能源车企当电池工程师", {("works_at", "新能源车企")}),
        ("got it!! senior designer from january", {("occupation", "senior designer")}),
        ("took an offer in Leeds as a senior planner", {("occupation", "senior planner")}),
        (
            "accepted the Arup offer, graduate engineer",
            {("works_at", "Arup"), ("occupation", "graduate engineer")},
        ),
        ("I finally retired last Friday, 31 years at the council", {("occupation", "retired")}),
        ("正式退休了 每天在家带孙子", {("occupation", "退休")}),
        ("bought a car last month, Skoda Fabia, 90k on the clock", {("vehicle", "Skoda Fabia")}),
        ("we finally got our first car - a 2012 Honda Jazz", {("vehicle", "Honda Jazz")}),
        ("提了比亚迪海豹两个月了，很省电", {("vehicle", "比亚迪海豹")}),
        ("朗逸卖了 换了一台宝马 iX3，在小区装了桩", {("vehicle", "宝马 iX3")}),
        ("每天早上在河边练太极", {("exercise", "太极")}),
        (
            "ended up buying the Hyundai Kona, the Tiguan was too pricey",
            {("vehicle", "Hyundai Kona")},
        ),
        ("we picked up an MG5 estate for the dog", {("vehicle", "MG5")}),
        ("got a used nissan qashqai off a neighbour", {("vehicle", "nissan qashqai")}),
        (
            "handed in my notice and launched Brightside Studio today!",
            {("works_at", "Brightside Studio")},
        ),
        ("moved into walthamstow! boxes everywhere", {("lives_in", "Walthamstow")}),
        ("we're staying in Bristol after all!", {("lives_in", "Bristol")}),
        ("its all padel now, three nights a week", {("exercise", "padel")}),
        ("周末约了朋友打排球", {("exercise", "排球")}),
        ("开荤半年了", {("diet", "开荤")}),
        ("去年正式退休了 在家带孙女", {("occupation", "退休")}),
        ("I finally proposed to Maeve and she said yes", {("partner", "Maeve")}),
        ("ravi (the guy i've been seeing) says hi", {("partner", "Ravi")}),
        (
            "we're fostering a collie named Bramble for the shelter",
            {("pet", "collie named Bramble")},
        ),
        ("I was diagnosed as having fibromyalgia last spring", {("health", "fibromyalgia")}),
        ("my GP says I have sleep apnoea", {("health", "sleep apnoea")}),
        (
            "so I accepted an offer: UX researcher at Monzo",
            {("works_at", "Monzo"), ("occupation", "UX researcher")},
        ),
        ("we have a Toyota Prius, it's fine for town", {("vehicle", "Toyota Prius")}),
        ("trying to get back into Italian before the trip", {("language", "Italian")}),
        ("qualified as an electrician in June", {("occupation", "electrician")}),
        ("I got a lectureship in Bristol!", set()),
        ("and I got a postdoc in Utrecht, starting in May", {("occupation", "postdoc")}),
        ("nurse says my blood pressure is a bit high", {("health", "blood pressure")}),
        ("医生说我尿酸偏高 让我少喝啤酒", {("health", "尿酸")}),
        ("闺女出生了，叫糖糖，六斤八两", {("family", "闺女 糖糖")}),
        ("前阵子认识了个男生叫子轩，朋友介绍的", {("partner", "子轩")}),
        ("我跟小区的阿姨学太极拳了", {("exercise", "太极拳")}),
        ("first month in Wellington done, windy af", {("lives_in", "Wellington")}),
        ("been in Leipzig for eight months now", {("lives_in", "Leipzig")}),
        (
            "three years in Glasgow and I still can't understand the bus drivers",
            {("lives_in", "Glasgow")},
        ),
        ("moved to Nairobi in May, living in Kilimani", {("lives_in", "Kilimani")}),
        ("back in Cork for good now", {("lives_in", "Cork")}),
        ("来厦门半年了 还是吃不惯海鲜", {("lives_in", "厦门")}),
        ("在青岛住了快两年了", {("lives_in", "青岛")}),
        ("tore my ACL at netball on saturday", {("health", "a torn ACL")}),
        ("so my eczema is back with the cold weather", {("health", "eczema")}),
        ("I have PCOS, so my doctor wants more protein", {("health", "PCOS")}),
        ("fractured my wrist at the skatepark", {("health", "a fractured wrist")}),
        (
            "ugh, physio says it's a hamstring tear, no running for a month",
            {("health", "hamstring tear")},
        ),
        ("the x-ray showed a hairline fracture in my foot", {("health", "hairline fracture")}),
        ("we're fostering a dog called biscuit for the RSPCA", {("pet", "dog called biscuit")}),
        ("体检查出来是脂肪肝", {("health", "脂肪肝")}),
        ("踢球伤了膝盖 拍了片 半月板撕裂", {("health", "半月板撕裂")}),
    ],
)
def test_news_of_a_job_a_car_or_a_condition(text: str, said: set[tuple[str, str]]) -> None:
    assert said <= _read(text)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("GOT THE TEAM LEAD JOB 😭", "works_at"),  # a role in capitals, no employer
        ("GOT THE LIBRARY JOB!!", "works_at"),
        ("下个月去广州做自由插画师", "works_at"),  # a city gone to, no employer
        ("每天坐地铁去南山上班", "works_at"),
        ("明天去医院做检查", "works_at"),
        ("two weeks in Japan now and loving it", "lives_in"),  # a trip's stretch
        ("到新公司一个月了", "lives_in"),
        ("在一起三年了", "lives_in"),
        ("moved into management last year", "lives_in"),  # a role, not a place
        ("and Priya got an offer in Berlin!", "occupation"),  # an offer is no trade
        ("新家安顿好了，血糖也稳", "health"),
        ("doc says it's nothing to worry about", "health"),
        ("physio says no more golf this year", "health"),
        ("we're staying in Rome for three nights", "lives_in"),  # a trip
        ("Got it — noted the deadline.", "occupation"),  # an assistant's "got it"
        ("my neighbour is a retired teacher", "occupation"),
    ],
)
def test_what_names_no_value_of_it(text: str, attribute: str) -> None:
    assert not any(a == attribute for a, _ in _read(text))


def test_a_scan_of_someone_else_is_theirs() -> None:
    said = {(s.attribute, s.value, s.subject) for s in find_statements("我爸拍了片 说是骨折")}
    assert said == {("health", "骨折", "爸爸")}


def test_retiring_ends_the_job_and_says_so() -> None:
    said = {(s.attribute, s.value, s.ended) for s in find_statements("我退休了")}
    assert ("works_at", None, True) in said and ("occupation", "退休", False) in said
