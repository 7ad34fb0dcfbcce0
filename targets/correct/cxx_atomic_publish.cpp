/*
 * targets/correct/cxx_atomic_publish.cpp - correct corpus (issue 30): an
 * object published through std::atomic<config *> with release and read with
 * acquire.  The publisher builds the object with new (plain fields), then
 * stores its pointer; two readers spin (std::this_thread::yield) until they
 * see it and check both fields.  main deletes it after joining.
 */
#include <atomic>
#include <cassert>
#include <thread>

namespace {
struct config {
	int width, height;
};
std::atomic<config *> published{nullptr};

void read_config()
{
	config *c;
	while (!(c = published.load(std::memory_order_acquire)))
		std::this_thread::yield();
	assert(c->width * c->height == 12);
}
} // namespace

int main()
{
	std::thread a(read_config), b(read_config);
	config *c = new config;
	c->width = 4;
	c->height = 3;
	published.store(c, std::memory_order_release);
	a.join();
	b.join();
	delete published.load();
	return 0;
}
