/** The consumer example: a module that needs nothing of opscv but its exported API. */
module io.opscv.example {
    requires io.opscv;
}
